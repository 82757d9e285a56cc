//go:build e2e

package ssrf

import (
	"crypto/sha256"
	"encoding/hex"
)

func keyHash() string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}
