package ledger

// ScanRaw calls fn with every complete line of the ledger (the legacy file
// and every segment) that keep accepts (nil keeps every line), in the
// canonical order, undecoded: a reader that needs a few fields of most
// lines (a replay) decodes them itself. The line is valid only during the
// call; an error returned by fn stops the scan and is returned.
func ScanRaw(root string, keep func(line []byte) bool, fn func(line []byte) error) error {
	return scanAll(root, keep, func(_ *source, line []byte, complete bool) error {
		if !complete {
			return nil
		}
		return fn(line)
	})
}
