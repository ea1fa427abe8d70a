//go:build !unix

package osfile

import "os"

// MapRange maps nothing here: the caller reads the range instead.
func MapRange(*os.File, int64, int64) (data []byte, unmap func(), ok bool) {
	return nil, nil, false
}
