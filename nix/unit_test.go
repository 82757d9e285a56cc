package nix

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const plainUnit = "../deploy/sift.service"

// maxExposure is the highest `systemd-analyze security` score accepted
// for either unit ("OK" ends at 4.9; sift's target is 2.0).
const maxExposure = 2.0

// serviceSection reads the [Service] section of a unit file: each key with
// its values, repeated assignments joined by spaces.
func serviceSection(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	section := ""
	settings := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			section = line
		case section == "[Service]":
			key, value, _ := strings.Cut(line, "=")
			if prev, ok := settings[key]; ok && prev != "" {
				value = prev + " " + value
			}
			settings[key] = value
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return settings
}

// unitValue writes a serviceConfig value the way NixOS renders it into a
// unit, repeated assignments joined by spaces.
func unitValue(v any) string {
	switch v := v.(type) {
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = unitValue(x)
		}
		return strings.Join(parts, " ")
	default:
		return fmt.Sprint(v)
	}
}

// TestPlainUnitMatchesModule: deploy/sift.service has the module's
// sandbox, setting for setting, and nothing the module lacks.
func TestPlainUnitMatchesModule(t *testing.T) {
	ev, stderr := evaluate(t, "./tests/configs/minimal.nix")
	if ev == nil {
		t.Fatalf("evaluation failed:\n%s", stderr)
	}
	plain := serviceSection(t, plainUnit)
	module := map[string]string{}
	for k, v := range ev.Unit.ServiceConfig {
		module[k] = unitValue(v)
	}
	module["Environment"] = "XDG_CACHE_HOME=" + ev.Unit.Environment["XDG_CACHE_HOME"]
	// What only the plain unit says: where its files are.
	pathsOnly := map[string]bool{"ExecStart": true, "ExecStartPre": true, "EnvironmentFile": true, "ExecReload": true}
	// Both reload with sift reload, which fails when sift refuses the file.
	const reload = "/bin/sift reload --config /etc/sift/config.hcl --pid $MAINPID"
	if !strings.HasSuffix(plain["ExecReload"], reload) || !strings.HasSuffix(module["ExecReload"], reload) {
		t.Errorf("ExecReload: %q in %s, %q in the module; want both to end %q", plain["ExecReload"], plainUnit, module["ExecReload"], reload)
	}
	for key, value := range plain {
		if pathsOnly[key] {
			continue
		}
		if got, ok := module[key]; !ok {
			t.Errorf("%s sets %s=%s, the module does not", plainUnit, key, value)
		} else if got != value {
			t.Errorf("%s=%s in %s, %s in the module", key, value, plainUnit, got)
		}
	}
	for key := range ev.Hardening {
		if _, ok := plain[key]; !ok {
			t.Errorf("the module sets %s, %s does not", key, plainUnit)
		}
	}
}

// moduleUnit writes the minimal configuration's unit as NixOS would, with
// ExecStart pointing at bin/sift so that systemd-analyze verify finds it.
func moduleUnit(t *testing.T, sift string) string {
	t.Helper()
	ev, stderr := evaluate(t, "./tests/configs/minimal.nix")
	if ev == nil {
		t.Fatalf("evaluation failed:\n%s", stderr)
	}
	var b strings.Builder
	b.WriteString("[Unit]\nDescription=sift\nAfter=" + strings.Join(ev.Unit.After, " ") + "\n\n[Service]\n")
	fmt.Fprintf(&b, "Environment=XDG_CACHE_HOME=%s\n", ev.Unit.Environment["XDG_CACHE_HOME"])
	keys := make([]string, 0, len(ev.Unit.ServiceConfig))
	for k := range ev.Unit.ServiceConfig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := ev.Unit.ServiceConfig[k]
		switch k {
		case "ExecStart":
			v = sift + " serve --config /etc/sift/config.hcl"
		case "ExecReload":
			v = sift + " reload --config /etc/sift/config.hcl --pid $MAINPID"
		}
		if list, ok := v.([]any); ok {
			for _, x := range list {
				fmt.Fprintf(&b, "%s=%s\n", k, unitValue(x))
			}
			continue
		}
		fmt.Fprintf(&b, "%s=%s\n", k, unitValue(v))
	}
	b.WriteString("\n[Install]\nWantedBy=multi-user.target\n")
	path := filepath.Join(t.TempDir(), "sift.service")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// plainUnitHere is deploy/sift.service with its binary at bin/sift.
func plainUnitHere(t *testing.T, sift string) string {
	t.Helper()
	text, err := os.ReadFile(plainUnit)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sift.service")
	here := strings.ReplaceAll(string(text), "/usr/local/bin/sift", sift)
	if err := os.WriteFile(path, []byte(here), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var exposure = regexp.MustCompile(`Overall exposure level for sift\.service: ([0-9.]+)`)

// TestUnitSecurity: systemd-analyze accepts both units, and scores their
// exposure at most maxExposure.
func TestUnitSecurity(t *testing.T) {
	analyze := need(t, "systemd-analyze")
	sift := siftBinary(t)
	for name, path := range map[string]string{
		"plain":  plainUnitHere(t, sift),
		"module": moduleUnit(t, sift),
	} {
		t.Run(name, func(t *testing.T) {
			stdout, stderr, err := run(t, analyze, "verify", path)
			if err != nil || strings.TrimSpace(stdout+stderr) != "" {
				t.Errorf("systemd-analyze verify: %v\n%s%s", err, stdout, stderr)
			}
			stdout, stderr, err = run(t, analyze, "security", "--offline=yes", path)
			m := exposure.FindStringSubmatch(stdout)
			if m == nil {
				t.Fatalf("systemd-analyze security: %v, no score in:\n%s%s", err, stdout, stderr)
			}
			score, _ := strconv.ParseFloat(m[1], 64)
			t.Logf("%s unit: exposure %.1f", name, score)
			if score > maxExposure {
				t.Errorf("exposure %.1f > %.1f:\n%s", score, maxExposure, stdout)
			}
		})
	}
}
