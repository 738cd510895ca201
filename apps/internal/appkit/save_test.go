package appkit

import "testing"

func TestHasFlag(t *testing.T) {
	if !HasFlag([]string{"-target=cpu", "--save=x"}, "save") || HasFlag([]string{"--", "-save"}, "save") || HasFlag([]string{"-saved"}, "save") {
		t.Error("HasFlag")
	}
}
