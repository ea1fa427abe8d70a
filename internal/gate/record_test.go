package gate

import (
	"testing"

	"github.com/intenthook/intenthook/internal/ledger"
)

func TestAttributeModel(t *testing.T) {
	tests := []struct {
		name, named, spent, before, want string
		contributor                      string
	}{
		{"a switch the event does not name", "", "claude-opus-4-1-20250805", "anthropic/claude-sonnet-4-5-20250929", "anthropic/claude-opus-4-1-20250805", "ai"},
		{"nothing new in the transcript", "", "", "anthropic/claude-sonnet-4-5-20250929", "anthropic/claude-sonnet-4-5-20250929", "ai"},
		{"the event names its model", "gpt-5", "claude-opus-4-1-20250805", "openai/gpt-5", "openai/gpt-5", "ai"},
		{"a person's ranges", "", "claude-opus-4-1-20250805", "", "", "human"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &ledger.Record{Files: []ledger.File{{Path: "a.go", Conversations: []ledger.Conversation{{Contributor: &ledger.Contributor{Type: tt.contributor, ModelID: tt.before}}}}}}
			attributeModel([]*ledger.Record{rec, {}}, tt.named, tt.spent)
			if got := rec.Files[0].Conversations[0].Contributor.ModelID; got != tt.want {
				t.Errorf("model_id = %q, want %q", got, tt.want)
			}
		})
	}
}
