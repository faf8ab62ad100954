#!/usr/bin/env python3
"""Checks a site written by clbench store site (docs/store.md, "The site"), page by page.

usage: site_check.py ROOT SITE DEVICES MODELS [FIELD...]
  ROOT     the folder the test made for the site; SITE must be the only thing written under it
  SITE     the site's folder
  DEVICES, MODELS   how many device and model pages the model asks for
  FIELD    a payload's field name that must appear, as text, on some page

Fails (exit 1, one line per finding) when a page is not well-formed (an end tag that closes
nothing open, an element left open, no doctype, title or h1), a file name is not a safe slug, a
temporary file is left, the manifest (.clbench-site) does not list exactly the pages written, a page is not valid UTF-8, a link is absolute, leaves the site or names no file (or no anchor of its page), a page is not
linked from anywhere (an orphan), a page carries an element or attribute that runs or loads
anything (script, img, iframe, object, embed, link, on*= attributes, src=), or a field's payload
is not found as text.
"""
import html
import html.parser
import os
import re
import sys
import urllib.parse

VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "embed", "source", "wbr",
        "rect", "path", "polyline", "line"}  # the SVG ones are written self-closed
FORBIDDEN = {"script", "img", "iframe", "object", "embed", "link", "frame", "base", "form", "audio", "video"}
SLUG = re.compile(r"^[a-z0-9_][a-z0-9_-]{0,95}\.html$")
MANIFEST = ".clbench-site"
PWNED = re.compile(r"pwned='([^']*)'")

bad = 0


def fail(*a):
    global bad
    if bad < 20:
        print("FAIL:", *a)
    bad += 1


class Page(html.parser.HTMLParser):
    def __init__(self, name):
        super().__init__(convert_charrefs=True)
        self.name, self.stack, self.links, self.text, self.tags = name, [], [], [], set()
        self.ids = set()
        self.doctype = False

    def handle_decl(self, decl):
        self.doctype |= decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag in FORBIDDEN:
            fail(self.name, "carries a <%s> element" % tag)
        for k, v in attrs:
            if k.startswith("on") or k in ("src", "srcdoc", "formaction", "xlink:href"):
                fail(self.name, "<%s> carries the attribute %s" % (tag, k))
            if k == "href":
                self.links.append(v or "")
            if k == "id":
                self.ids.add(v)
            if k == "style":
                fail(self.name, "<%s> carries an inline style attribute" % tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            fail(self.name, "</%s> closes nothing open (open: %s)" % (tag, "/".join(self.stack[-3:])))
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def main():
    root, site, ndev, nmodel = sys.argv[1], os.path.realpath(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    fields = set(sys.argv[5:])
    # Nothing outside the site: every file and folder under ROOT lies on the way to SITE or in it.
    for d, dirs, files in os.walk(root):
        for f in files + dirs:
            p = os.path.realpath(os.path.join(d, f))
            if not (p + os.sep).startswith(site + os.sep) and not (site + os.sep).startswith(p + os.sep):
                fail("written outside the site:", p)
    pages = {}
    for d, dirs, files in os.walk(site):
        rel = os.path.relpath(d, site)
        if rel not in (".", "device", "model"):
            fail("unexpected folder", rel)
        for f in files:
            if rel == "." and f == MANIFEST:
                continue
            if not SLUG.match(f):
                fail("unsafe or temporary file name", os.path.join(rel, f))
            pages[os.path.normpath(os.path.join(rel, f))] = os.path.join(d, f)
    count = lambda sub: sum(1 for p in pages if p.startswith(sub + os.sep))
    if count("device") != ndev or count("model") != nmodel:
        fail("%d device and %d model pages, want %d and %d" % (count("device"), count("model"), ndev, nmodel))
    for top in ("index.html", "scores.html"):
        if top not in pages:
            fail("no", top)
    try:
        lines = open(os.path.join(site, MANIFEST), "rb").read().decode("ascii").split("\n")
        if lines[0] != "clbench site manifest 1" or lines[-1] != "" or set(lines[1:-1]) != set(pages) or \
                len(lines) - 2 != len(pages):
            fail("the manifest does not list exactly the pages written:",
                 sorted(set(lines[1:-1]) ^ set(pages))[:5], len(lines) - 2, len(pages))
    except (OSError, UnicodeDecodeError) as e:
        fail("no readable manifest:", e)
    linked, seen = set(), set()
    for rel, path in sorted(pages.items()):
        raw = open(path, "rb").read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            fail(rel, "is not valid UTF-8:", e)
            text = raw.decode("utf-8", "replace")
        p = Page(rel)
        p.feed(text)
        p.close()
        if p.stack:
            fail(rel, "elements left open:", "/".join(p.stack))
        if not p.doctype or "title" not in p.tags or "h1" not in p.tags:
            fail(rel, "lacks the doctype, a title or an h1")
        for href in p.links:
            if href.startswith("#"):
                if href[1:] not in p.ids:
                    fail(rel, "link to an anchor not on the page:", href)
                continue
            u = urllib.parse.urlsplit(href)
            if u.scheme or u.netloc or href.startswith("/") or not u.path:
                fail(rel, "link not relative to the site:", href)
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(rel), urllib.parse.unquote(u.path)))
            if target.startswith("..") or target not in pages:
                fail(rel, "link to a page not written:", href)
            linked.add(target)
        for m in PWNED.finditer("".join(p.text)):
            seen.add(m.group(1))
    for orphan in sorted(set(pages) - linked - {"index.html"}):
        fail("no page links to", orphan)
    for f in sorted(fields - seen):
        fail("the payload of %s is not shown as text on any page" % f)
    print("site_check: %d pages, %d findings" % (len(pages), bad))
    return bad != 0


sys.exit(main())
