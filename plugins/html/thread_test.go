package html

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestThread: a Q&A page that marks its posts in microdata is read as its
// question and every answer, each with its byline, in page order; remarks
// on the question and the answers and the page's chrome are left out.
func TestThread(t *testing.T) {
	md := extractFile(t, "thread").Content
	order := []string{"Maren Mar 2, 2024", "QUESTION-TEXT", "Tomas Mar 3, 2024", "FIRST-ANSWER", "Ines", "SECOND-ANSWER"}
	at := -1
	for _, want := range order {
		i := strings.Index(md, want)
		if i < 0 {
			t.Fatalf("%q missing:\n%s", want, md)
		}
		if i < at {
			t.Errorf("%q out of order:\n%s", want, md)
		}
		at = i
	}
	for _, gone := range []string{"COMMENT-ON-QUESTION", "COMMENT-ON-ANSWER", "RELATED-QUESTION", "reputation", "42 votes", "all rights reserved"} {
		if strings.Contains(md, gone) {
			t.Errorf("%q kept:\n%s", gone, md)
		}
	}
}

// TestThreadNeedsReplies: a page that marks one reply, or that does not
// declare a discussion, is left to the main-content extraction.
func TestThreadNeedsReplies(t *testing.T) {
	one := `<html><body><div itemscope itemtype="https://schema.org/Question"><div itemprop="text">Q</div>` +
		`<div itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer"><div itemprop="text">A</div></div></div></body></html>`
	if threadOf(parsePage(t, one), nil) != nil {
		t.Error("a thread was read from a page with one reply")
	}
	md := extractFile(t, "thread").Content
	input, err := os.ReadFile(filepath.Join("testdata", "thread", "input.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := strings.Replace(string(input), "QAPage", "WebPage", 1)
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Content == md {
		t.Error("a page that declares no discussion was read as a thread")
	}
}

// TestDropSignatures: the signature under each post goes, named by class
// or id; the posts stay.
func TestDropSignatures(t *testing.T) {
	post := func(text, signature string) string {
		return `<article class="comment"><a href="/u/ola">ola</a><div class="content"><p>` + text + `</p></div>` + signature + `</article>`
	}
	root := parsePage(t, `<html><body><div id="posts">`+
		post("POST-ONE fonts are replaced on export", `<div class="ipsEntry__signature">SIGNATURE-A iMac 27 inch</div>`)+
		post("POST-TWO turn off subsetting", `<div id="signature-12">SIGNATURE-B iPad and Pencil</div>`)+
		`</div></body></html>`)
	dropSignatures(root)
	checkText(t, textOfNode(root), []string{"POST-ONE", "POST-TWO", "ola"}, []string{"SIGNATURE"})
}

// TestOpeningPostKept: XenForo marks each reply a Comment and the opening
// post nothing, in the same element as the replies; the thread keeps its
// text (not its author's card), first, and nothing else unmarked.
func TestOpeningPostKept(t *testing.T) {
	post := func(attrs, author, text string) string {
		return `<article class="message message--post js-post"` + attrs + `><section class="message-user"><h4>` + author + `</h4></section>` +
			`<div class="message-content"><article class="message-body"><div` + map[bool]string{true: ` itemprop="text"`, false: ``}[attrs != ""] + `><div class="bbWrapper">` + text + `</div></div></article></div></article>`
	}
	reply := func(author, text string) string {
		return post(` itemscope itemtype="https://schema.org/Comment"`, author, text)
	}
	replies := reply("Reefing102", "REPLY-ONE A dwarf lion would likely be okay.") + reply("Dbroncos", "REPLY-TWO A little small for a Flame Angel.")
	tests := []struct {
		name, posts string
		order       []string
		gone        []string
	}{
		{"an unmarked opening post of the replies' kind", post("", "Bagabaga", "OPENING I just got a 50 gallon tank.") + replies,
			[]string{"OPENING", "REPLY-ONE", "REPLY-TWO"}, []string{"Bagabaga"}},
		{"an element of another kind before the replies", `<div class="block-notice">NOTICE Log in to reply.</div>` + replies,
			[]string{"REPLY-ONE", "REPLY-TWO"}, []string{"NOTICE"}},
		{"an unmarked post after the first reply is not the opening", reply("Reefing102", "REPLY-ONE A dwarf lion would likely be okay.") +
			post("", "Ad", "LATER Sponsored.") + reply("Dbroncos", "REPLY-TWO A little small for a Flame Angel."),
			[]string{"REPLY-ONE", "REPLY-TWO"}, []string{"LATER"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			thread := threadOf(parsePage(t, `<html><body><div class="block-body">`+tc.posts+`</div></body></html>`), nil)
			if thread == nil {
				t.Fatal("no thread")
			}
			text := textOfNode(thread)
			at := -1
			for _, want := range tc.order {
				i := strings.Index(text, want)
				if i < 0 || i < at {
					t.Errorf("%q missing or out of order:\n%s", want, text)
				}
				at = i
			}
			checkText(t, text, nil, tc.gone)
		})
	}
}

// TestOpeningPartKept: a thread marked a DiscussionForumPosting around
// every post, its own text marked only in a hidden copy, keeps the opening
// post it shows, ahead of the replies, and not the hidden copy.
func TestOpeningPartKept(t *testing.T) {
	reply := func(text string) string {
		return `<div class="MessageCard" itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="author">ola</span><article itemprop="text">` + text + `</article></div>`
	}
	replies := `<div class="block block--messages">` + reply("REPLY-ONE They look like the third generation's.") + reply("REPLY-TWO Probably, to save money.") + `</div>`
	tests := []struct {
		name, inside string
		order        []string
		gone         []string
	}{
		{"the opening post shown beside the replies", `<div class="hidden"><article itemprop="text">COPY I guess I'm the first.</article></div>` +
			`<div class="MessageCard js-post"><article class="message-body" itemprop="">OPENING I guess I'm the first, with the liftgate lights.</article></div>` + replies,
			[]string{"OPENING", "REPLY-ONE", "REPLY-TWO"}, []string{"COPY"}},
		{"nothing beside the replies", replies, []string{"REPLY-ONE", "REPLY-TWO"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body><div class="thread" itemscope itemtype="https://schema.org/DiscussionForumPosting">`+tc.inside+`</div></body></html>`)
			removeHidden(root)
			thread := threadOf(root, nil)
			if thread == nil {
				t.Fatal("no thread")
			}
			text := textOfNode(thread)
			at := -1
			for _, want := range tc.order {
				i := strings.Index(text, want)
				if i < 0 || i < at {
					t.Errorf("%q missing or out of order:\n%s", want, text)
				}
				at = i
			}
			checkText(t, text, nil, tc.gone)
		})
	}
}
