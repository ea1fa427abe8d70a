package config

// StarterPrices is the price table init writes into a new workspace's
// config.yaml: the providers' list prices, dated, for people to check and
// edit (intenthook reads no prices from the network). It is written in
// the subset the hooks read themselves.
const StarterPrices = `# What each model's tokens cost, in US dollars per million tokens
# (docs/budgets.md#money): post records a call's usd from it, and an
# intent's budget: {usd: X} counts it. A model is priced by the longest
# name here that is its own or begins it ("claude-sonnet-4-5" prices
# claude-sonnet-4-5-20250929); a model not listed is not priced.
# Starter list prices, compiled on 2026-12-02 from the providers' pricing
# pages (platform.claude.com/docs/en/about-claude/pricing,
# openai.com/api/pricing): check them against your own rates. Not
# modelled: batch and regional rates, long-prompt tiers, 1-hour cache
# writes (cache_creation is the 5-minute write price).
prices:
  claude-opus-4: {input: 15, output: 75, cache_creation: 18.75, cache_read: 1.50}
  claude-opus-4-1: {input: 15, output: 75, cache_creation: 18.75, cache_read: 1.50}
  claude-opus-4-5: {input: 5, output: 25, cache_creation: 6.25, cache_read: 0.50}
  claude-opus-4-6: {input: 5, output: 25, cache_creation: 6.25, cache_read: 0.50}
  claude-opus-4-7: {input: 5, output: 25, cache_creation: 6.25, cache_read: 0.50}
  claude-opus-4-8: {input: 5, output: 25, cache_creation: 6.25, cache_read: 0.50}
  claude-opus-5: {input: 5, output: 25, cache_creation: 6.25, cache_read: 0.50}
  claude-sonnet-4: {input: 3, output: 15, cache_creation: 3.75, cache_read: 0.30}
  claude-sonnet-4-5: {input: 3, output: 15, cache_creation: 3.75, cache_read: 0.30}
  claude-sonnet-4-6: {input: 3, output: 15, cache_creation: 3.75, cache_read: 0.30}
  claude-sonnet-5: {input: 2, output: 10, cache_creation: 2.50, cache_read: 0.20}
  claude-haiku-4-5: {input: 1, output: 5, cache_creation: 1.25, cache_read: 0.10}
  claude-3-5-haiku: {input: 0.80, output: 4, cache_creation: 1, cache_read: 0.08}
  gpt-5: {input: 1.25, output: 10, cache_read: 0.125}
  gpt-5-mini: {input: 0.25, output: 2, cache_read: 0.025}
  gpt-5-nano: {input: 0.05, output: 0.40, cache_read: 0.005}
  gpt-5.1: {input: 1.25, output: 10, cache_read: 0.125}
  gpt-5.4: {input: 2.50, output: 15, cache_read: 0.25}
  gpt-5.5: {input: 5, output: 30, cache_read: 0.50}
`
