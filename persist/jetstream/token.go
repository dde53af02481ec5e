package jetstream

import "encoding/base64"

// token turns an entity name into one subject token and key-value key: the
// name itself when it is made of letters, digits, '-', '_' and '/' only,
// otherwise '=' and the name in unpadded URL-safe base64. '=' is in neither
// alphabet of the first form, so two names never share a token.
func token(entity string) string {
	if entity != "" && plain(entity) {
		return entity
	}
	return "=" + base64.RawURLEncoding.EncodeToString([]byte(entity))
}

func plain(s string) bool {
	for i := range len(s) {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '/'
		if !ok {
			return false
		}
	}
	return true
}
