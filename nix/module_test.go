package nix

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestModule evaluates services.sift for each configuration under
// tests/configs, compares the rendered HCL with its golden file, has sift
// validate it (as the module's build step does), and checks the unit.
func TestModule(t *testing.T) {
	sift := siftBinary(t)
	tests := []struct {
		config string
		unit   func(t *testing.T, sc map[string]any, ev *evaluation)
	}{
		{"minimal", func(t *testing.T, sc map[string]any, ev *evaluation) {
			want(t, sc, "ExecStart", storeStub+"sift/bin/sift serve --config /etc/sift/config.hcl")
			want(t, sc, "ExecReload", storeStub+"sift/bin/sift reload --config /etc/sift/config.hcl --pid $MAINPID")
			want(t, sc, "StateDirectory", "sift")
			want(t, sc, "WorkingDirectory", "/var/lib/sift")
			want(t, sc, "MemoryMax", "4G")
			want(t, sc, "TasksMax", float64(512))
			absent(t, sc, "EnvironmentFile", "LoadCredential")
			if contains(ev.Unit.After, "postgresql.service") {
				t.Errorf("a SQLite sift waits for postgresql.service: after = %v", ev.Unit.After)
			}
		}},
		{"digest-search-postgres", func(t *testing.T, sc map[string]any, ev *evaluation) {
			// The credential becomes HONCHO_KEY in a start script.
			want(t, sc, "ExecStart", storeStub+"sift-start")
			want(t, sc, "EnvironmentFile", "/run/secrets/sift.env")
			want(t, sc, "LoadCredential", []any{"HONCHO_KEY:/run/secrets/honcho"})
			want(t, sc, "ExecReload", storeStub+"sift-reload $MAINPID")
			startScript(t, ev.StartScript)
			credentialScript(t, ev.ReloadScript, []string{"4242"}, "reload --config /etc/sift/config.hcl --pid 4242")
			if !contains(ev.Unit.After, "postgresql.service") {
				t.Errorf("a PostgreSQL sift does not start after postgresql.service: after = %v", ev.Unit.After)
			}
		}},
		{"restricted-callers", func(t *testing.T, sc map[string]any, ev *evaluation) {
			want(t, sc, "StateDirectory", "sift-agents")
			want(t, sc, "WorkingDirectory", "/var/lib/sift-agents")
			want(t, sc, "MemoryMax", "8G")
			want(t, sc, "TasksMax", float64(1024))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			ev, stderr := evaluate(t, "./tests/configs/"+tt.config+".nix")
			if ev == nil {
				t.Fatalf("evaluation failed:\n%s", stderr)
			}
			golden(t, filepath.Join("testdata", tt.config+".hcl"), ev.HCL)
			validate(t, sift, ev.HCL)

			sc := ev.Unit.ServiceConfig
			for key, value := range ev.Hardening {
				want(t, sc, key, value)
			}
			if !contains(ev.Unit.WantedBy, "multi-user.target") {
				t.Errorf("wantedBy = %v, want multi-user.target", ev.Unit.WantedBy)
			}
			if ev.Unit.Environment["XDG_CACHE_HOME"] != "%C" {
				t.Errorf("XDG_CACHE_HOME = %q, want %%C (PDFium's compilation cache)", ev.Unit.Environment["XDG_CACHE_HOME"])
			}
			// The file sift reads stays at one path, and a change to it
			// reloads the unit in place.
			src := ev.Etc["sift/config.hcl"].Source
			if !strings.HasPrefix(src, storeStub) || !strings.HasSuffix(src, "-sift.hcl") {
				t.Errorf("environment.etc.\"sift/config.hcl\".source = %q, want the rendered file", src)
			}
			if !slices.Equal(ev.Unit.ReloadTriggers, []string{src}) {
				t.Errorf("reloadTriggers = %v, want the rendered file", ev.Unit.ReloadTriggers)
			}
			tt.unit(t, sc, ev)
		})
	}
}

// TestModuleReloadsInPlace: as NixOS' switch-to-configuration sees the
// unit, a changed caller changes only its reload trigger (the file is
// reloaded, the unit not restarted); what only a restart applies (listen,
// the store) changes its restart trigger too.
func TestModuleReloadsInPlace(t *testing.T) {
	const hash = "3f1cb9c2a58c0e1e2ae0f5e7a3d51e8d3e9f4a9b0c1d2e3f405162738495a6b7"
	eval := func(extra string) *evaluation {
		t.Helper()
		ev, stderr := evaluate(t, `{ services.sift = { enable = true; callers.agents.keySha256 = "`+hash+`"; `+extra+` }; }`)
		if ev == nil {
			t.Fatalf("evaluation of %s failed:\n%s", extra, stderr)
		}
		return ev
	}
	base := eval("")
	tests := []struct {
		name, extra string
		restart     bool
	}{
		{"another caller", `callers.more.keySha256 = "` + hash + `";`, false},
		{"a pipeline stage's attribute", `pipeline = [ { kind = "guard"; } { kind = "fetch"; timeout = "5s"; } { kind = "extract"; } ];`, false},
		{"an extractor's memory", `extractors.pdf.memory = "1GiB";`, false},
		{"listen", `listen = "127.0.0.1:8891";`, true},
		{"the store", `store = { driver = "postgres"; dsn_env = "SIFT_DSN"; };`, true},
		{"the batch block", `batch = { workers = 1; };`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := eval(tt.extra)
			if slices.Equal(ev.Unit.ReloadTriggers, base.Unit.ReloadTriggers) {
				t.Errorf("reloadTriggers did not change: %v", ev.Unit.ReloadTriggers)
			}
			for _, key := range []string{"ExecStart", "ExecReload"} {
				if ev.Unit.ServiceConfig[key] != base.Unit.ServiceConfig[key] {
					t.Errorf("%s changed (%v → %v): the unit restarts", key, base.Unit.ServiceConfig[key], ev.Unit.ServiceConfig[key])
				}
			}
			if restart := !slices.Equal(ev.Unit.RestartTriggers, base.Unit.RestartTriggers); restart != tt.restart {
				t.Errorf("restartTriggers changed: %v, want %v", restart, tt.restart)
			}
		})
	}
}

// TestModuleMergesExtractors: an operator's extractor block adds to the
// shipped html and pdf blocks attribute by attribute, never replacing
// them; null leaves one out.
func TestModuleMergesExtractors(t *testing.T) {
	const hash = "3f1cb9c2a58c0e1e2ae0f5e7a3d51e8d3e9f4a9b0c1d2e3f405162738495a6b7"
	tests := []struct {
		extra         string
		want, missing []string
	}{
		{``, []string{`extractor "html" {` + "\n  cpus = 1\n  memory = \"512MiB\"", `memory = "768MiB"`}, nil},
		{`extractors.pdf.memory = "1GiB";`, []string{`extractor "html" {` + "\n  cpus = 1", `memory = "1GiB"`, `max_pages = 500`}, []string{`memory = "768MiB"`}},
		{`extractors.epub = { command = "/run/current-system/sw/bin/sift-epub"; };`,
			[]string{`extractor "epub"`, `memory = "768MiB"`, `memory = "512MiB"`}, nil},
		{`extractors.pdf = null;`, []string{`extractor "html"`}, []string{`extractor "pdf"`}},
	}
	for _, tt := range tests {
		ev, stderr := evaluate(t, `{ services.sift = { enable = true; callers.agents.keySha256 = "`+hash+`"; `+tt.extra+` }; }`)
		if ev == nil {
			t.Fatalf("%s: evaluation failed:\n%s", tt.extra, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(ev.HCL, w) {
				t.Errorf("%s: the HCL lacks %q:\n%s", tt.extra, w, ev.HCL)
			}
		}
		for _, m := range tt.missing {
			if strings.Contains(ev.HCL, m) {
				t.Errorf("%s: the HCL holds %q:\n%s", tt.extra, m, ev.HCL)
			}
		}
	}
}

// TestModuleTypoFailsValidate: a misspelt attribute renders, and sift
// validate, the module's build step, refuses it with the nearest name.
func TestModuleTypoFailsValidate(t *testing.T) {
	sift := siftBinary(t)
	ev, stderr := evaluate(t, `{ services.sift = { enable = true;
		callers.a.keySha256 = "3f1cb9c2a58c0e1e2ae0f5e7a3d51e8d3e9f4a9b0c1d2e3f405162738495a6b7";
		pipeline = [ { kind = "guard"; } { kind = "fetch"; timout = "20s"; } { kind = "extract"; } ]; }; }`)
	if ev == nil {
		t.Fatalf("evaluation failed:\n%s", stderr)
	}
	file := filepath.Join(t.TempDir(), "sift.hcl")
	if err := os.WriteFile(file, []byte(ev.HCL), 0o600); err != nil {
		t.Fatal(err)
	}
	_, out, err := run(t, sift, "validate", file)
	if err == nil || !strings.Contains(out, `Did you mean "timeout"?`) {
		t.Errorf("sift validate on a typo: err = %v, output:\n%s", err, out)
	}
}

// TestModuleRefuses: a secret as an option value, or the development key
// beyond loopback, fails evaluation with a message naming the option.
func TestModuleRefuses(t *testing.T) {
	const hash = "3f1cb9c2a58c0e1e2ae0f5e7a3d51e8d3e9f4a9b0c1d2e3f405162738495a6b7"
	const devHash = "4525af7e8f344cc741a6e9608adc2f8a4c5d1303103ca9ac907b698232109aea"
	tests := []struct {
		name, config, message string
	}{
		{"key instead of its hash", `callers.a.keySha256 = "sift-dev-key";`,
			"services.sift.callers.a.keySha256 must be the SHA-256 of the key"},
		{"uppercase hash", `callers.a.keySha256 = "` + strings.ToUpper(hash) + `";`,
			"services.sift.callers.a.keySha256 must be the SHA-256 of the key"},
		{"dev key on every address", `listen = "0.0.0.0:8890"; callers.local.keySha256 = "` + devHash + `";`,
			"services.sift.callers.local holds the development key sift-dev-key, so sift may listen only on loopback"},
		{"dev key on a LAN address", `listen = "10.1.2.3:8890"; callers.local.keySha256 = "` + devHash + `";`,
			"may listen only on loopback"},
		{"dev key on IPv6 everywhere", `listen = "[::]:8890"; callers.local.keySha256 = "` + devHash + `";`,
			"may listen only on loopback"},
		{"dev key in extraConfig", `listen = "0.0.0.0:8890"; callers.a.keySha256 = "` + hash + `"; extraConfig = "caller \"local\" {\n  key_sha256 = \"` + devHash + `\"\n}";`,
			"services.sift.extraConfig gives a caller the development key"},
		{"dev key on a name that starts with 127.", `listen = "127.example.org:8890"; callers.local.keySha256 = "` + devHash + `";`,
			"may listen only on loopback"},
		{"Brave key as a value", `callers.a.keySha256 = "` + hash + `"; search.brave.api_key = "BSAx1234";`,
			"services.sift.search.brave.api_key would put a secret in the Nix store"},
		{"key in an *_env attribute", `callers.a.keySha256 = "` + hash + `"; search.brave.api_key_env = "BSA-x1234-secret";`,
			"services.sift.search.brave.api_key_env must name an environment variable"},
		{"DSN with a password", `callers.a.keySha256 = "` + hash + `"; store = { driver = "postgres"; dsn = "host=db user=sift password=hunter2"; };`,
			"services.sift.store.dsn holds a password"},
		{"DSN URL with a password", `callers.a.keySha256 = "` + hash + `"; store = { driver = "postgres"; dsn = "postgres://sift:hunter2@db/sift"; };`,
			"services.sift.store.dsn holds a password"},
		{"digester token", `callers.a.keySha256 = "` + hash + `"; digesters.llm = { endpoint = "http://127.0.0.1:8080/v1"; token = "abc"; };`,
			"services.sift.digesters.llm.token would put a secret in the Nix store"},
		{"secret in extraConfig", `callers.a.keySha256 = "` + hash + `"; extraConfig = "context \"honcho\" {\n  api_key = \"abc\"\n}";`,
			"services.sift.extraConfig sets a secret"},
		{"environment file in the store", `callers.a.keySha256 = "` + hash + `"; environmentFile = "/nix/store/abc-sift.env";`,
			"services.sift.environmentFile is in the Nix store"},
		{"credential in the store", `callers.a.keySha256 = "` + hash + `"; credentials.BRAVE_API_KEY = "/nix/store/abc-brave";`,
			"services.sift.credentials.BRAVE_API_KEY is in the Nix store"},
		{"credential named like no variable", `callers.a.keySha256 = "` + hash + `"; credentials."KEY; rm -rf /" = "/run/secrets/k";`,
			"a credential's name is the environment variable sift reads"},
		{"state outside /var/lib", `callers.a.keySha256 = "` + hash + `"; dataDir = "/srv/sift";`,
			"services.sift.dataDir must be under /var/lib/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, stderr := evaluate(t, "{ services.sift = { enable = true; "+tt.config+" }; }")
			if ev != nil {
				t.Fatalf("evaluation succeeded, rendering:\n%s", ev.HCL)
			}
			if !strings.Contains(stderr, "Failed assertions:") || !strings.Contains(stderr, tt.message) {
				t.Errorf("error does not say %q:\n%s", tt.message, stderr)
			}
		})
	}
}

// TestModuleAccepts: what the refusals must not catch.
func TestModuleAccepts(t *testing.T) {
	const devHash = "4525af7e8f344cc741a6e9608adc2f8a4c5d1303103ca9ac907b698232109aea"
	for _, config := range []string{
		`callers.local.keySha256 = "` + devHash + `";`,
		`listen = "[::1]:8890"; callers.local.keySha256 = "` + devHash + `";`,
		`listen = "localhost:8890"; callers.local.keySha256 = "` + devHash + `";`,
		`listen = "127.0.0.2:8890"; callers.local.keySha256 = "` + devHash + `";`,
		`store = { driver = "postgres"; dsn = "host=/run/postgresql dbname=sift"; };`,
		`digesters.llm = { endpoint = "http://127.0.0.1:8080/v1"; max_tokens = 1500; api_key_env = "LLM_KEY"; };`,
	} {
		if ev, stderr := evaluate(t, "{ services.sift = { enable = true; "+config+" }; }"); ev == nil {
			t.Errorf("%s refused:\n%s", config, stderr)
		}
	}
}

// TestHCLStrings: a string never becomes an HCL template.
func TestHCLStrings(t *testing.T) {
	nix := need(t, "nix-instantiate")
	expr := `(import ./hcl.nix { lib = import ./tests/nixpkgs-lib/lib; }).value ` +
		`[ "say \"hi\"" "\${HOME}" "%{ if x }" "a\\b\nc" true 3 ]`
	out, stderr, err := run(t, nix, "--eval", "--json", "-E", expr)
	if err != nil {
		t.Fatal(stderr)
	}
	wantHCL := `"[\"say \\\"hi\\\"\", \"$${HOME}\", \"%%{ if x }\", \"a\\\\b\\nc\", true, 3]"`
	if strings.TrimSpace(out) != wantHCL {
		t.Errorf("got  %s\nwant %s", out, wantHCL)
	}
}

func want(t *testing.T, sc map[string]any, key string, value any) {
	t.Helper()
	if got, ok := sc[key]; !ok || !reflect.DeepEqual(got, value) {
		t.Errorf("serviceConfig.%s = %#v, want %#v", key, got, value)
	}
}

func absent(t *testing.T, sc map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if v, ok := sc[k]; ok {
			t.Errorf("serviceConfig.%s = %#v, want none", k, v)
		}
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantText, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./nix/ -update writes it)", err)
	}
	if got != string(wantText) {
		t.Errorf("rendered HCL differs from %s:\n%s", path, got)
	}
}

func validate(t *testing.T, sift, hcl string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "sift.hcl")
	if err := os.WriteFile(file, []byte(hcl), 0o600); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, err := run(t, sift, "validate", "--no-environment", file); err != nil {
		t.Errorf("sift validate refuses the rendered HCL: %v\n%s%s", err, stdout, stderr)
	}
}

// startScript runs the module's start script with a credential whose value
// is hostile to a shell, and a stand-in sift that prints the variable.
func startScript(t *testing.T, script string) {
	t.Helper()
	credentialScript(t, script, nil, "serve --config /etc/sift/config.hcl")
}

// credentialScript runs script (a start or reload script of the module)
// with args, a stand-in sift that prints what it was given and a
// credential holding a secret no shell may mangle, and checks sift got
// the secret and want as its arguments.
func credentialScript(t *testing.T, script string, args []string, want string) {
	t.Helper()
	dir := t.TempDir()
	const secret = "s3cr3t $HOME `id` \"quoted\" * ;"
	creds := filepath.Join(dir, "credentials")
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(creds, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(creds, "HONCHO_KEY"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stand := "#!/bin/sh\nprintf '%s|%s' \"$HONCHO_KEY\" \"$*\"\n"
	if err := os.WriteFile(filepath.Join(dir, "bin", "sift"), []byte(stand), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "script")
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(script, storeStub+"sift/", dir+"/")), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", append([]string{file}, args...)...)
	cmd.Env = append(os.Environ(), "CREDENTIALS_DIRECTORY="+creds)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("script: %v\n%s\nscript:\n%s", err, out, script)
	}
	if want := secret + "|" + want; string(out) != want {
		t.Errorf("script gave sift %q, want %q", out, want)
	}
}
