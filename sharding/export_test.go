package sharding

// SetInboundHook has fn see every envelope a region receives, on the
// region's goroutine, before it is routed; the returned function removes
// it.
func SetInboundHook(fn func(node, id string, msg any)) (remove func()) {
	inboundHook.Store(&fn)
	return func() { inboundHook.Store(nil) }
}
