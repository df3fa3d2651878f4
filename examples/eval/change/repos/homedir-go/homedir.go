// Package homedir expands a leading ~ in paths, as a shell does.
package homedir

import (
	"errors"
	"strings"
)

// ErrOtherUser is returned for "~name/...": only the current user's home is known.
var ErrOtherUser = errors.New("homedir: cannot expand another user's home folder")

// Expand replaces a leading "~/" in path with home; other paths come back as they are.
func Expand(path, home string) (string, error) {
	if strings.HasPrefix(path, "~/") {
		return home + path[1:], nil
	}
	if strings.HasPrefix(path, "~") {
		return "", ErrOtherUser
	}
	return path, nil
}
