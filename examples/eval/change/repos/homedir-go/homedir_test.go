package homedir

import "testing"

func TestExpandHomePrefix(t *testing.T) {
	got, err := Expand("~/notes.txt", "/home/ada")
	if err != nil || got != "/home/ada/notes.txt" {
		t.Fatalf("Expand(~/notes.txt) = %q, %v", got, err)
	}
}

func TestExpandLeavesOtherPaths(t *testing.T) {
	got, err := Expand("/etc/hosts", "/home/ada")
	if err != nil || got != "/etc/hosts" {
		t.Fatalf("Expand(/etc/hosts) = %q, %v", got, err)
	}
}

func TestExpandRefusesOtherUsers(t *testing.T) {
	if _, err := Expand("~bob/x", "/home/ada"); err != ErrOtherUser {
		t.Fatalf("Expand(~bob/x) error = %v", err)
	}
}
