package mqtt

import (
	"testing"

	"github.com/tridboard/tridboard/internal/setting"
)

// TestOptsValidate: each bad client setting is one problem keyed by its
// yaml name, saying what to write; all of them at once.
func TestOptsValidate(t *testing.T) {
	tests := []struct {
		name string
		set  func(o *Opts)
		want setting.Problems
	}{
		{"defaults", func(o *Opts) {}, nil},
		{"no broker: the caller's", func(o *Opts) { o.Broker = "" }, nil},
		{"bad broker", func(o *Opts) { o.Broker = "ftp://x:1" }, nil},
		{"empty prefix", func(o *Opts) { o.Prefix = "" }, setting.Problems{{Key: "prefix", Msg: "empty"}}},
		{"wildcard prefix", func(o *Opts) { o.Prefix = "a/+" }, setting.Problems{{Key: "prefix", Msg: `"a/+": holds a wildcard (+ #) or NUL`}}},
		{"$ discovery", func(o *Opts) { o.Discovery = "$SYS" }, setting.Problems{{Key: "discovery", Msg: `"$SYS": starts with '$', reserved for brokers`}}},
		{"empty level", func(o *Opts) { o.Prefix = "a//b" }, setting.Problems{{Key: "prefix", Msg: `"a//b": has an empty level`}}},
		{"no discovery", func(o *Opts) { o.Discovery = "" }, nil},
		{"half a certificate", func(o *Opts) { o.KeyFile = "k.pem" }, setting.Problems{{Key: "cert_file", Msg: "cert_file and key_file go together"}}},
		{"username alone", func(o *Opts) { o.Username = "u" }, setting.Problems{{Key: "username", Msg: `"u" without a password: set mqtt.password or TRIDBOARD_MQTT_PASSWORD`}}},
		{"password alone", func(o *Opts) { o.Password = "p" }, setting.Problems{{Key: "username", Msg: "a password without a username: set mqtt.username"}}},
		{"all at once", func(o *Opts) { o.Prefix, o.Discovery, o.Password = "", "#", "p" }, setting.Problems{
			{Key: "prefix", Msg: "empty"}, {Key: "discovery", Msg: `"#": holds a wildcard (+ #) or NUL`},
			{Key: "username", Msg: "a password without a username: set mqtt.username"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOpts()
			tt.set(&o)
			got := setting.Of(o.Validate())
			if tt.name == "bad broker" {
				if len(got) != 1 || got[0].Key != "broker" || got[0].Msg == "" {
					t.Fatalf("problems = %+v, want one of broker", got)
				}
				return
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("problem %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}
