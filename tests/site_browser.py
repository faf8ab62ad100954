#!/usr/bin/env python3
"""Walks a site written by clbench store site in one headless Chromium (docs/store.md, "The site").

usage: site_browser.py CHROMIUM SITE PROFILE_DIR [PAGE...]
  PAGE (relative to SITE): for a site too large to walk, load only these pages, print each one's
  load time, and check their links against the files written instead of following them.

Starting at SITE/index.html, follows every link (breadth first) through the DevTools protocol
over a pipe (--remote-debugging-pipe: one browser for all pages). Fails (exit 1, one line per
finding) when a page does not load, a link leaves the site, a page logs an error or an exception
(a script the page policy refused counts), a script ran (the payloads set data-pwned on the
root element), the DOM holds a script, img, iframe, object or embed element or an on* attribute,
a page has no title or h1, an inline SVG is not laid out, or a page of the site is never reached.
"""
import json
import os
import subprocess
import sys
import time
import urllib.parse

PROBE = """JSON.stringify({
  title: document.title, h1: document.querySelectorAll('h1').length,
  pwned: document.documentElement.dataset.pwned || null,
  bad: [...document.querySelectorAll('script,img,iframe,object,embed')].map(e => e.tagName),
  on: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => /^on/i.test(a.name))).length,
  svg: [...document.querySelectorAll('svg')].map(s => s.getBoundingClientRect().width * s.getBoundingClientRect().height),
  links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  height: document.body ? document.body.scrollHeight : 0})"""


class Browser:
    def __init__(self, chrome, profile):
        to_chrome, self.w = os.pipe()
        self.r, from_chrome = os.pipe()

        def fds():  # the browser reads fd 3, writes fd 4; a dup2 onto itself keeps close-on-exec
            os.dup2(to_chrome, 3)
            os.dup2(from_chrome, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
        self.p = subprocess.Popen(
            [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
             "--disable-background-networking", "--disable-component-update", "--remote-debugging-pipe",
             "--user-data-dir=" + profile, "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome)
        os.close(from_chrome)
        self.buf, self.next, self.events = b"", 0, []

    def send(self, method, params=None, session=None):
        self.next += 1
        msg = {"id": self.next, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        return self.wait(lambda m: m.get("id") == self.next)

    def wait(self, pred, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            while b"\0" in self.buf:
                raw, self.buf = self.buf.split(b"\0", 1)
                m = json.loads(raw)
                if "method" in m:
                    self.events.append(m)
                if pred(m):
                    return m
            chunk = os.read(self.r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buf += chunk
        raise RuntimeError("no answer from chromium")

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()


def errors_of(events):
    """The errors a page logged: exceptions, console errors, refused scripts (Log entries)."""
    out = []
    for e in events:
        m, p = e["method"], e.get("params", {})
        if m == "Runtime.exceptionThrown":
            out.append("exception: " + p.get("exceptionDetails", {}).get("text", "?"))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append("console error")
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            out.append("log: " + p["entry"].get("text", "?")[:200])
    return out


def main():
    chrome, site, profile = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
    only = sys.argv[4:]  # a large site: these pages alone, each link checked against the files
    root = "file://" + urllib.parse.quote(site) + "/"
    pages = {os.path.relpath(os.path.join(d, f), site) for d, _, fs in os.walk(site) for f in fs} - {".clbench-site"}
    b, bad = Browser(chrome, profile), []
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["result"]["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["result"]["sessionId"]
        for m in ("Page.enable", "Runtime.enable", "Log.enable"):
            b.send(m, session=s)
        todo, seen = list(only) or ["index.html"], set(only) or {"index.html"}
        while todo:
            rel = todo.pop(0)
            b.events = []
            t0 = time.time()
            nav = b.send("Page.navigate", {"url": root + urllib.parse.quote(rel)}, session=s)
            if nav.get("result", {}).get("errorText"):
                bad.append("%s: does not load: %s" % (rel, nav["result"]["errorText"]))
                continue
            loaded = lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == s
            if not any(loaded(e) for e in b.events):  # it may come before navigate's answer
                b.wait(loaded)
            if only:
                print("site_browser: %s loaded in %.2f s" % (rel, time.time() - t0))
            r = b.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True}, session=s)
            got = json.loads(r["result"]["result"]["value"])
            bad += ["%s: %s" % (rel, e) for e in errors_of(b.events)]
            if got["pwned"]:
                bad.append("%s: a payload ran (field %s)" % (rel, got["pwned"]))
            if got["bad"] or got["on"]:
                bad.append("%s: elements %s, %d on* attributes from the model" % (rel, got["bad"], got["on"]))
            if not got["title"] or got["h1"] != 1 or got["height"] <= 0:
                bad.append("%s: not rendered (title %r, %d h1, height %s)" % (rel, got["title"], got["h1"], got["height"]))
            if any(a <= 0 for a in got["svg"]):
                bad.append("%s: an inline SVG has no area" % rel)
            for href in got["links"]:
                u = href.split("#")[0]
                if not u.startswith(root):
                    bad.append("%s: a link leaves the site: %s" % (rel, href))
                    continue
                t = urllib.parse.unquote(u[len(root):])
                if only and t not in pages:
                    bad.append("%s: a link to a page not written: %s" % (rel, href))
                if not only and t not in seen:
                    seen.add(t)
                    todo.append(t)
        for p in sorted(pages - seen) if not only else []:
            bad.append("never reached by a link: " + p)
        for p in sorted(seen - pages):
            bad.append("linked but not written: " + p)
    finally:
        b.close()
    for x in bad[:30]:
        print("FAIL:", x)
    print("site_browser: %d pages walked, %d findings" % (len(seen), len(bad)))
    return bool(bad)


sys.exit(main())
