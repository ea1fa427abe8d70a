package attest

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Envelope is a DSSE envelope (the JSON form of Dead Simple Signing
// Envelope v1), as cosign and in-toto read it.
type Envelope struct {
	PayloadType string      `json:"payloadType"`
	Payload     string      `json:"payload"` // standard base64
	Signatures  []Signature `json:"signatures"`
}

// Signature is one signature of an envelope, over PAE(payloadType,
// payload).
type Signature struct {
	KeyID string `json:"keyid"`
	Sig   string `json:"sig"` // standard base64
}

// PAE is DSSE's pre-authentication encoding, the bytes a signature covers:
// "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in ASCII
// decimal.
func PAE(payloadType string, payload []byte) []byte {
	out := []byte("DSSEv1 ")
	out = strconv.AppendInt(out, int64(len(payloadType)), 10)
	out = append(out, ' ')
	out = append(out, payloadType...)
	out = append(out, ' ')
	out = strconv.AppendInt(out, int64(len(payload)), 10)
	out = append(out, ' ')
	return append(out, payload...)
}

// decodeEnvelope reads an envelope and its payload.
func decodeEnvelope(data []byte) (*Envelope, []byte, error) {
	var env Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, nil, fmt.Errorf("not a DSSE envelope: %w", err)
	}
	if env.PayloadType == "" || env.Payload == "" {
		return nil, nil, errors.New("not a DSSE envelope: no payloadType or payload")
	}
	payload, err := decode64(env.Payload)
	if err != nil {
		return nil, nil, fmt.Errorf("the envelope's payload: %w", err)
	}
	if len(env.Signatures) == 0 {
		return nil, nil, errors.New("the envelope has no signature")
	}
	return &env, payload, nil
}

// decode64 takes standard base64, and URL-safe base64 as DSSE also allows.
func decode64(s string) ([]byte, error) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	b, err := base64.URLEncoding.DecodeString(s)
	if err != nil {
		return nil, errors.New("not base64")
	}
	return b, nil
}

func encode64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
