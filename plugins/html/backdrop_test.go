package html

import (
	"strings"
	"testing"
)

// TestTextColouredAsBehind: text coloured as the background its nearest
// painted ancestor or the page's body declares is removed; text on a band
// the stylesheets paint in between, or whose background sift cannot know,
// is read.
func TestTextColouredAsBehind(t *testing.T) {
	// linkedSheet makes the page link a stylesheet sift does not read.
	const linkedSheet = `</style><link rel="stylesheet" href="/site.css"><style>`
	for _, tc := range []struct {
		name, sheet, body, element string
		gone                       bool
	}{
		{"style on an ancestor's background", ``, ``, `<div style="background: #fafafa"><div><p style="color: #FAFAFA">W</p></div></div>`, true},
		{"font on a table's bgcolor", ``, ``, `<table bgcolor="white"><tr><td><font color="#ffffff">W</font></td></tr></table>`, true},
		{"font on the body's bgcolor", ``, ` bgcolor="#000"`, `<p><font color="black">W</font></p>`, true},
		{"style on the page's sheet background", `body { background-color: rgb(255,255,255) }`, ``, `<p><span style="color:#fff">W</span></p>`, true},
		{"font on the page's sheet background", `html { background: #ffffff }`, ``, `<p><font color="white">W</font></p>`, true},
		{"the nearest background differs", ``, ``, `<div style="background:#fff"><div style="background-color:#000"><p style="color:#fff">W</p></div></div>`, false},
		{"a band the sheet paints in between", `body { background: #fff } .band { background: #123 }`, ``, `<div class="band"><p style="color:#fff">W</p></div>`, false},
		{"a band the sheet paints, under a style", `.band { background: #123 }`, ``, `<div style="background:#fff"><div class="band"><p style="color:#fff">W</p></div></div>`, false},
		{"the element painted by the sheet", `body { background: #fff } .chip { background: #c00 }`, ``, `<p><span class="chip" style="color:#fff">W</span></p>`, false},
		{"no background declared: the page's default is not assumed", linkedSheet, ``, `<p><font color="white">W</font></p>`, false},
		{"an image behind", ``, ``, `<div style="background: url(/sky.jpg)"><p style="color:#fff">W</p></div>`, false},
		{"a transparent ancestor is seen through", ``, ` style="background:#fff"`, `<div style="background: transparent"><p style="color: white">W</p></div>`, true},
		{"on its own background", ``, ` bgcolor="#fff"`, `<div style="background-color:#9e3493;color:#fff">W</div>`, false},
		{"a classed element in between, which other stylesheets may paint", linkedSheet, ` style="background:#fff"`, `<div class="card-overlay"><span style="color:#fff">W</span></div>`, false},
		{"the element has an id", linkedSheet, ` style="background:#fff"`, `<span id="title" style="color:#fff">W</span>`, false},
		{"a classed body holds the page's background", `body { background: #fff }`, ` class="home page-template"`, `<p><span style="color:#fff">W</span></p>`, true},
		{"in three places", ``, ``, strings.Repeat(`<div style="background: #fafafa"><p style="color: #fafafa">W</p></div>`, 3), true},
		{"rgb with spaces against hex", ``, ``, `<div style="background: rgb(255 255 255)"><p style="color:#fff">W</p></div>`, true},
		{"eight-digit hex", ``, ``, `<div style="background:#ffffffff"><p style="color:white">W</p></div>`, true},
		{"hsl against a name", ``, ``, `<div style="background-color: hsl(0, 0%, 100%)"><p style="color: white">W</p></div>`, true},
		{"rgb percentages", ``, ``, `<div style="background: #000"><p style="color: rgb(0%, 0%, 0% / 1)">W</p></div>`, true},
		{"translucent black on black is black", ``, ``, `<div style="background: #000"><p style="color: rgba(0, 0, 0, 0.5)">W</p></div>`, true},
		{"translucent black on white is grey", ``, ``, `<div style="background: #fff"><p style="color: rgba(0, 0, 0, 0.5)">W</p></div>`, false},
		{"translucent white on white", ``, ``, `<div style="background: #fff"><p style="color: rgba(255,255,255,.5)">W</p></div>`, true},
		{"a trace of black on white", ``, ``, `<div style="background: #fff"><p style="color: rgb(0 0 0 / 2%)">W</p></div>`, true},
		{"eight-digit hex, nearly clear", ``, ``, `<div style="background: #fff"><p style="color: #00000005">W</p></div>`, true},
		{"ivory on white", ``, ``, `<div style="background: #fff"><p style="color: ivory">W</p></div>`, true},
		{"yellow on white is read", ``, ``, `<div style="background: #fff"><p style="color: yellow">W</p></div>`, false},
		{"another colour", ``, ` bgcolor="#fff"`, `<p><font color="#333">W</font></p>`, false},
		{"a complete page is white where nothing paints it", ``, ``, `<p><font color="white">W</font></p>`, true},
		// Colours of CSS Color 4 and 5, and colours a reader cannot tell
		// from the background.
		{"oklch white on the page's white", ``, ``, `<p><span style="color: oklch(1 0 0)">W</span></p>`, true},
		{"lab white on a white band", ``, ``, `<div style="background:#fff"><p style="color: lab(100% 0 0)">W</p></div>`, true},
		{"hwb black on black", ``, ``, `<div style="background:black"><p style="color: hwb(0 0% 100%)">W</p></div>`, true},
		{"a color() white", ``, ``, `<div style="background:#fff"><p style="color: color(display-p3 1 1 1)">W</p></div>`, true},
		{"a mix that is all white", ``, ``, `<div style="background:#fff"><p style="color: color-mix(in oklab, white 100%, red)">W</p></div>`, true},
		{"a named colour on itself", ``, ``, `<div style="background: lightgray"><p style="color: LightGray">W</p></div>`, true},
		{"a white a reader cannot tell from white", ``, ``, `<div style="background:#fff"><p style="color:#fefefe">W</p></div>`, true},
		{"the same, from the stylesheet", `.faint { color: #fdfdfd }`, ``, `<p class="faint">W</p>`, true},
		{"rgb past its range, clamped to white", ``, ``, `<div style="background:#fff"><p style="color: rgb(300,300,300)">W</p></div>`, true},
		{"an hsl hue in turns", ``, ``, `<div style="background:#fff"><p style="color: hsl(0.5turn 0% 100%)">W</p></div>`, true},
		{"rebeccapurple on its hex", ``, ``, `<div style="background:#663399"><p style="color: RebeccaPurple">W</p></div>`, true},
		{"a light grey is read", ``, ``, `<div style="background:#fff"><p style="color:#eeeeee">W</p></div>`, false},
		{"a half mix of white and red is read", ``, ``, `<div style="background:#fff"><p style="color: color-mix(in srgb, white, red)">W</p></div>`, false},
		{"a translucent oklch white lets the page through", linkedSheet, ``, `<div style="background:#000"><p style="color: oklch(1 0 0 / 0.4)">W</p></div>`, false},
		{"a complete page's classed elements are known", ``, ``, `<div class="card"><span id="t" style="color:#fff">W</span></div>`, true},
		{"a complete page's sheet colours a class", `.note { color: #FFF }`, ``, `<p class="note">W</p>`, true},
		{"a sheet colour by a descendant selector", `body { background: #fafafa } article .note { color: rgb(250,250,250) }`, ``, `<div><p class="note">W</p></div>`, true},
		{"a more specific rule colours it again", `.note { color: #fff } article p.note { color: #333 }`, ``, `<p class="note">W</p>`, false},
		{"an important rule wins over specificity", `.note { color: #fff !important } article p.note { color: #333 }`, ``, `<p class="note">W</p>`, true},
		{"a sheet colour on a band the sheet paints", `.band { background: #123 } .note { color: #fff }`, ``, `<div class="band"><p class="note">W</p></div>`, false},
		{"a sheet colour on a linked page", linkedSheet + `.note { color: #fff } body { background: #fff }`, ``, `<p class="note">W</p>`, false},
		{"an imported sheet leaves the page incomplete", `@import url(/site.css); .note { color: #fff }`, ``, `<p class="note">W</p>`, false},
		{"a child coloured again", ``, ` bgcolor="#fff"`, `<div style="color:#fff"><p style="color:#222">W</p></div>`, false},
		{"a child coloured again by the sheet", `.x { color: #fff } .x p { color: #222 }`, ``, `<div class="x"><p>W</p></div>`, false},
		{"an important rule over a style", `.note { color: #fff !important }`, ``, `<p class="note" style="color:#222">W</p>`, true},
		{"an important rule for another colour over a white style", `.note { color: #222 !important }`, ``, `<p class="note" style="color:#fff">W</p>`, false},
		{"an unlayered rule over a more specific layered one", `@layer base { .note.note { color: #222 } } .note { color: #fff }`, ``, `<p class="note">W</p>`, true},
		{"a layered white under an unlayered colour", `@layer base { .note.note { color: #fff } } .note { color: #222 }`, ``, `<p class="note">W</p>`, false},
		{"a band a custom property paints", `:root { --bg: #000 } .band { background: var(--bg) } .band p { color: #fff }`, ``, `<div class="band"><p>W</p></div>`, false},
		{"a band a picture paints", `.hero { background-image: url(/sky.jpg) }`, ``, `<div class="hero"><p style="color:#fff">W</p></div>`, false},
		{"a body the sheets paint dark by class", `.dark { background: #111 } .t { color: #fff }`, ` class="dark"`, `<p class="t">W</p>`, false},
		{"a page painted by :root", `:root { background: #111 } .t { color: #fff }`, ``, `<p class="t">W</p>`, false},
		{"an important body background over a later one", `body { background: #111 !important } body { background: #fff } .t { color: #fff }`, ``, `<p class="t">W</p>`, false},
		{"a dark colour scheme", `:root { color-scheme: dark }`, ``, `<p style="color:#fff">W</p>`, false},
		{"a dark scheme asked in a media query only", `@media (prefers-color-scheme: dark) { p { color: #eee } }`, ``, `<p style="color:#fff">W</p>`, true},
		{"a shadow around the letters", `.t { color: #fff; text-shadow: 0 0 2px #000 }`, ``, `<p class="t">W</p>`, false},
		{"a filter on the band", ``, ``, `<div style="filter: invert(1)"><p style="color:#fff">W</p></div>`, false},
		{"a picture placed behind the text", `.hero img { position: absolute; inset: 0 } .hero p { color: #fff }`, ``, `<div class="hero"><img src="/sky.jpg" alt=""><p>W</p></div>`, false},
		{"a picture in a wrapper placed behind", `.card .thumb { position: absolute } .card h3 { color: #fff }`, ``, `<div class="card"><div class="thumb"><img src="/p.jpg" alt=""></div><div class="overlay"><h3>W</h3></div></div>`, false},
		{"a painted box placed behind", `.cover span { position: absolute; inset: 0; background: #639 } .cover p { color: #fff }`, ``, `<div class="cover"><span aria-hidden="true"></span><div><p>W</p></div></div>`, false},
		{"a painted ::before", `.banner::before { content: ""; position: absolute; inset: 0; background: #0f172a } .banner h2 { color: #fff }`, ``, `<div class="banner"><h2>W</h2></div>`, false},
		{"a picture in the flow above the text", `.hero p { color: #fff }`, ``, `<div class="hero"><img src="/sky.jpg" alt=""><p>W</p></div>`, true},
		{"a band the sheets paint the text's colour", `.card { background: #336699 } .card p { color: #336699 }`, ``, `<div class="card"><p>W</p></div>`, true},
		{"a sheet colour on an inline band of its colour", `.t { color: #336699 }`, ``, `<div style="background:#336699"><p class="t">W</p></div>`, true},
		{"a legacy colour without its hash", ``, ` bgcolor="ffffff"`, `<p><font color="FFFFFF">W</font></p>`, true},
		{"a script that restyles the page", `.t { color: #fff }` + `</style><script src="/theme.js"></script><style>`, ``, `<p class="t">W</p>`, false},
		{"an escaped import", `@\69mport url(/site.css); .t { color: #fff }`, ``, `<p class="t">W</p>`, false},
		{"a sheet colour written with spaces and a custom property's alpha", `.t { --o: 1; color: rgb(255 255 255 / var(--o)) }`, ``, `<p class="t">W</p>`, true},
		{"its own sheet background of its colour", `p { background: white } .t { color: white }`, ``, `<p class="t">W</p>`, true},
		{"its own sheet background of another colour", `p { background: #000 } .t { color: white }`, ``, `<p class="t">W</p>`, false},
		{"every element painted white", `* { background: #fff } .t { color: #fff }`, ``, `<p class="t">W</p>`, true},
		{"a child painted as the text", `.t { color: #fff } .t span { background: #fff }`, ``, `<p class="t"><span>W</span></p>`, true},
		{"a child inheriting the colour", `.w { color: #fff } .t { color: inherit }`, ``, `<div class="w"><p class="t">W</p></div>`, true},
		{"a band and a text of one custom property", `:root { --ink: #336699 } .band { background: var(--ink) } .t { color: var(--ink) }`, ``, `<div class="band"><p class="t">W</p></div>`, true},
		{"a long chain of custom properties", `:root { --a: #fff; --b: var(--a); --c: var(--b); --d: var(--c); --e: var(--d); --f: var(--e) } .t { color: var(--f) }`, ``, `<p class="t">W</p>`, true},
		{"a loop of custom properties takes the fallback", `:root { --a: var(--b); --b: var(--a) } .t { color: var(--a, #fff) }`, ``, `<p class="t">W</p>`, true},
		{"the letters filled as the page", ``, ` bgcolor="#fff"`, `<p style="color:#000; -webkit-text-fill-color: #fff">W</p>`, true},
		{"the letters filled transparent", ``, ``, `<p style="-webkit-text-fill-color: transparent">W</p>`, true},
		{"the letters filled in another colour", `.t { color: #fff; -webkit-text-fill-color: #222 }`, ``, `<p class="t">W</p>`, false},
		{"the system colour of the page", ``, ``, `<p style="color: Canvas">W</p>`, true},
		{"a class written with an escape", `.n\31{color:#fff}`, ``, `<p class="n1">W</p>`, true},
		{"a rule under :where() loses to an element's", `p { color: #222 } :where(.t) { color: #fff }`, ``, `<p class="t">W</p>`, false},
		{"a rule under :where() wins over an earlier one as specific", `:where(p) { color: #222 } :where(.t) { color: #fff }`, ``, `<p class="t">W</p>`, true},
		{"a background custom property with a fallback, set", `:root { --brand: #4f46e5 } .btn { background-color: var(--brand, #fff); color: #fff }`, ``, `<p><span class="btn">W</span></p>`, false},
		{"an important sheet background over a style", `.cta { background: #e11d48 !important } .cta p { color: #fff }`, ``, `<div class="cta" style="background:#fff"><p>W</p></div>`, false},
		{"a background on wide screens only", `.feature { color: #fff } @media (min-width: 768px) { .feature { background: #7f1d1d } }`, ``, `<p class="feature">W</p>`, false},
		{"a dark variant sift cannot write out", `.dk:where(.dark, .dark *) { background: #020617 } .t { color: #fff }`, ` class="dk"`, `<p class="t">W</p>`, false},
		{"a dark scheme in the root's style", ``, ``, `<p style="color:#fff">W</p></article></body></html><html style="color-scheme: dark"><body><article>`, false},
		{"a mark's own yellow", `mark.note { color: #fff }`, ``, `<p><mark class="note">W</mark></p>`, false},
		{"a script setting the theme", `[data-theme=dark] body { background: #0b1120 } h2 { color: #fff }</style><script>document.documentElement.setAttribute('data-theme', 'dark')</script><style>`, ``, `<h2>W</h2>`, false},
		{"gradient text", `.clip { background-clip: text; -webkit-background-clip: text } .tt { color: transparent } .grad { background-image: linear-gradient(90deg, #f00, #00f) }`, ` bgcolor="#fff"`, `<p><span class="clip tt grad">W</span></p>`, false},
		{"transparent text clipped to no background", `.clip { background-clip: text } .tt { color: transparent }`, ``, `<p><span class="clip tt">W</span></p>`, true},
		{"a link inside, in the browser's colour", ``, ` bgcolor="#fff"`, `<p style="color:#fff">See <a href="/w">W</a></p>`, false},
		{"a custom property of the root", `:root { --paper: #fff } body { background: #fff }`, ``, `<p><span style="color: var(--paper)">W</span></p>`, true},
		{"a custom property set on an ancestor", ``, ``, `<div style="background:#fafafa; --ink: #fafafa"><p style="color: var(--ink)">W</p></div>`, true},
		{"a custom property of the style itself", ``, ` bgcolor="#000"`, `<p style="--c: black; color: var(--c)">W</p>`, true},
		{"a custom property's fallback", ``, ` bgcolor="#000"`, `<p style="color: var(--unset, #000)">W</p>`, true},
		{"a custom property of another colour", `:root { --ink: #222 }`, ` bgcolor="#fff"`, `<p style="color: var(--ink)">W</p>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if gone := wordRemoved(t, `<style>`+tc.sheet+`</style>`, tc.body, tc.element); gone != tc.gone {
				t.Errorf("removed = %v, want %v", gone, tc.gone)
			}
		})
	}
}

// wordRemoved builds a page of an article with head in its <head> (a
// <style> and the like), bodyAttrs on its <body> and element after the
// article's paragraph, its text W written THE-WORD, removes what readers
// cannot see, and reports whether THE-WORD went.
func wordRemoved(t *testing.T, head, bodyAttrs, element string) bool {
	t.Helper()
	root := parsePage(t, `<html><head>`+head+`</head><body`+bodyAttrs+`><article>`+
		`<p>`+strings.Repeat("Visible words a reader sees. ", 20)+`</p>`+
		strings.ReplaceAll(element, ">W<", ">THE-WORD<")+`</article></body></html>`)
	removeHidden(root)
	return !strings.Contains(textOfNode(root), "THE-WORD")
}
