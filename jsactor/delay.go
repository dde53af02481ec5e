package jsactor

// maxDelayMS is the longest timer delay, 2^31-1 ms (about 24.8 days), as
// Node's TIMEOUT_MAX and the browsers' 32-bit delays. Longer delays,
// Infinity included, are clamped to it: the timer fires after about 24.8
// days. (Node instead fires such a timer after 1 ms, and browsers wrap
// the delay; clamping keeps "a very long time" from meaning "now".) The
// loop saturates its deadline arithmetic as well, so no delay can wrap
// around to the past.
const maxDelayMS = 1<<31 - 1
