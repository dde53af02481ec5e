package systems

import (
	"encoding/json"

	"github.com/fxamacker/cbor/v2"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Reference columns of the remote suite's codec row: the same struct
// through CBOR (troupe's fallback codec) and encoding/json, so that the
// binary codec's figure has a same-machine, same-run yardstick.
const (
	CBOR = "CBOR"
	JSON = "encoding/json"
)

var (
	cborCodec = register(&System{Name: CBOR, Cases: map[string]Case{"codec": func(p Params) (measure.Figures, error) {
		return codecRoundTrips(p, cbor.Marshal, cbor.Unmarshal)
	}, "codec_scalars": func(p Params) (measure.Figures, error) {
		return scalarsRoundTrips(p, cbor.Marshal, cbor.Unmarshal)
	}}})
	jsonCodec = register(&System{Name: JSON, Cases: map[string]Case{"codec": func(p Params) (measure.Figures, error) {
		return codecRoundTrips(p, json.Marshal, json.Unmarshal)
	}}})
)

func init() {
	for _, s := range []*System{cborCodec, jsonCodec} {
		s.cannotRun("a codec reference only", "remote_tell", "remote_ask_p50", "remote_ask_p99", "server_start")
	}
	jsonCodec.cannotRun("CBOR is the codec_scalars row's one reference", "codec_scalars")
}

// codecRoundTrips marshals and unmarshals the codec scenario's struct
// p.N times with the given functions.
func codecRoundTrips(p Params, marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) (measure.Figures, error) {
	v := codecValue()
	m := measure.Start()
	for range p.N {
		b, err := marshal(v)
		if err != nil {
			return measure.Figures{}, err
		}
		var w codecMsg
		if err := unmarshal(b, &w); err != nil {
			return measure.Figures{}, err
		}
	}
	return m.Stop(p.N), nil
}

// scalarsRoundTrips marshals and unmarshals the codec_scalars scenario's
// struct p.N times with the given functions. It is codecRoundTrips for
// another struct, not one generic function: boxing a type parameter's
// value costs the reference an allocation per call that the concrete
// call does not (CBOR's codec_scalars went from 2 to 3), which would
// change the references' figures.
func scalarsRoundTrips(p Params, marshal func(any) ([]byte, error), unmarshal func([]byte, any) error) (measure.Figures, error) {
	v := scalarsValue()
	m := measure.Start()
	for range p.N {
		b, err := marshal(v)
		if err != nil {
			return measure.Figures{}, err
		}
		var w scalarsMsg
		if err := unmarshal(b, &w); err != nil {
			return measure.Figures{}, err
		}
	}
	return m.Stop(p.N), nil
}
