package html

import "testing"

// TestEscapedDeclarationsHide: declarations written with CSS escapes hide
// as the same declarations written plainly do, in a style or a rule of
// the page's stylesheet; a class named with an escape still matches.
func TestEscapedDeclarationsHide(t *testing.T) {
	for _, tc := range []struct {
		name, sheet, element string
		gone                 bool
	}{
		{"escaped property in a style", ``, `<p style="disp\lay: none">W</p>`, true},
		{"hex-escaped value in a style", ``, `<p style="display: n\6f ne">W</p>`, true},
		{"an escaped # makes no colour", ``, `<div style="background:#fff"><p style="color: \23 fff">W</p></div>`, false},
		{"an escaped digit makes no number", `.x { opacity: \30 }`, `<p class="x">W</p>`, false},
		{"escaped property in a rule", `.x { d\isplay: none }`, `<p class="x">W</p>`, true},
		{"escaped value in a rule", `.x { visibility: hi\64 den }`, `<p class="x">W</p>`, true},
		{"escaped font size in a rule", `.x { font-\73 ize: 0 }`, `<p class="x">W</p>`, true},
		{"an escaped class still selects", `.md\:gone { display: none }`, `<p class="md:gone">W</p>`, true},
		{"a comment inside a style's value", ``, `<p style="display:/**/none">W</p>`, true},
		{"control: a plain rule", `.x { display: none }`, `<p class="x">W</p>`, true},
		{"an escape that spells another property", `.x { d\69 splay: block }`, `<p class="x">W</p>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if gone := wordRemoved(t, `<style>`+tc.sheet+`</style>`, "", tc.element); gone != tc.gone {
				t.Errorf("removed = %v, want %v", gone, tc.gone)
			}
		})
	}
}

// TestStyleElementsAsBrowsersApplyThem: a <style> applies as a browser
// applies it: not when its type is not CSS, its media are not the
// screen's or it stands in a <template>.
func TestStyleElementsAsBrowsersApplyThem(t *testing.T) {
	for _, tc := range []struct {
		name, style string
		gone        bool
	}{
		{"a plain style", `<style>.x { display: none }</style>`, true},
		{"text/css in capitals", `<style type="TEXT/CSS">.x { display: none }</style>`, true},
		{"media all", `<style media="all">.x { display: none }</style>`, true},
		{"media screen", `<style media="screen">.x { display: none }</style>`, true},
		{"media print", `<style media="print">.x { display: none }</style>`, false},
		{"media a desktop's", `<style media="(min-width: 900px)">.x { display: none }</style>`, false},
		{"a type that is not CSS", `<style type="text/foo">.x { display: none }</style>`, false},
		{"inside a template", `<template><style>.x { display: none }</style></template>`, false},
		{"media that are no query", `<style media="x{} .x{display:none} @media y">.y { color: red }</style>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if gone := wordRemoved(t, tc.style, "", `<p class="x">W</p>`); gone != tc.gone {
				t.Errorf("removed = %v, want %v", gone, tc.gone)
			}
		})
	}
}
