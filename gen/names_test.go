package gen

import "testing"

// TestWithArticle: generated docs say "a Counter actor", "an Inventory
// actor", reading initialisms letter by letter.
func TestWithArticle(t *testing.T) {
	for name, want := range map[string]string{
		"Counter":    "a Counter",
		"Inventory":  "an Inventory",
		"Account":    "an Account",
		"Echo":       "an Echo",
		"Order":      "an Order",
		"Umbrella":   "an Umbrella",
		"User":       "a User",
		"Unit":       "a Unit",
		"OneShot":    "a OneShot",
		"Europe":     "a Europe",
		"HTTPServer": "an HTTPServer",
		"URLStore":   "a URLStore",
		"SQLDB":      "an SQLDB",
		"account":    "an account",
		"player":     "a player",
	} {
		if got := withArticle(name); got != want {
			t.Errorf("withArticle(%q) = %q, want %q", name, got, want)
		}
	}
}
