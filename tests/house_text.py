#!/usr/bin/env python3
"""The project's text speaks of itself by date, device and what things are (the developers' brief).
1. docs/results/README.md's table: every row's first column an ISO date, no claim twice (same
   date and claim, or the same value, peer and ratio), every linked file there; every
   `data/ARCHIVE.tar.xz` named in docs/results/*.md a file of docs/results/data/. Rows appended at
   the end may break the date order, so the order is not checked.
2. No file of the tree, in its name or its text, names a session of work or an issue by number
   ("session 4", "the session's", "issue 33", "task 12", "#24"). Generated examples and data are
   not read.
Usage: house_text.py SOURCE_DIR"""
import datetime
import glob
import os
import re
import sys

ROW = re.compile(r'^\|(.*)\|\s*$')
LINK = re.compile(r'\]\(([^)#\s]+)(?:#[^)\s]*)?\)')
ARCHIVE = re.compile(r'data/([A-Za-z0-9._+-]+\.tar\.xz)')
PLACEHOLDER = re.compile(r'^[A-Z-]+\.tar\.xz$')  # the README's `data/ARCHIVE.tar.xz`

# (pattern, what it names); matched case-insensitively, one finding per line.
SELF_REFS = [
    (r'\bsessions?\s*#?\d', 'a work session by number'),
    (r"\b(this|that|the|last|previous|next|earlier|later|each|every|our|work)\s+sessions?\b"
     r"|\bsessions?'s\b", 'a work session'),
    (r'\b(issues?|tasks?|tickets?)\s*#?\d+\b(?!\.\d)', 'an issue or task by number'),
    (r'(^|[(\[]|\b(see|fix|fixes|fixed|close|closes|closed|after|before|from|in|of)\s+)#\d+\b(?![-\w])',
     'an issue by number (#N)'),
]
SELF_REF_NAME = re.compile(r'(session|issue|task|ticket)s?[-_]?\d', re.I)
# Not the project's text: generated pages and data, third-party peers' output.
SKIP_DIRS = {'docs/examples', 'docs/results/data', 'data', 'tests/data', 'tests/fuzz/corpus',
             'tests/golden', 'tests/hostile'}
SKIP_FILES = {'tests/house_text.py', 'tests/mutation/house_tidy.tsv'}
TEXT_EXT = {'.md', '.c', '.h', '.cl', '.cu', '.py', '.sh', '.txt', '.cmake', '.tsv', '.in', '.json',
            '.1', '.bash', ''}


def cells(line):
    m = ROW.match(line)
    return [c.strip() for c in m.group(1).split('|')] if m else None


def is_date(s):
    try:
        return datetime.date.fromisoformat(s).isoformat() == s
    except ValueError:
        return False


def table_rows(text):
    """(line number, cells) of each data row of the first table, header and rule left out."""
    rows, started = [], False
    for n, line in enumerate(text.split('\n'), 1):
        c = cells(line)
        if c is None:
            if started:
                break
            continue
        started = True
        if c[0] == 'date' or set(c[0]) <= set('-: '):
            continue
        rows.append((n, c))
    return rows


def check_rows(readme, rows):
    bad, seen = [], {}
    where = os.path.dirname(readme)
    for n, c in rows:
        at = 'docs/results/README.md:%d' % n
        if len(c) != 7:
            bad.append('%s: %d columns, not 7' % (at, len(c)))
            continue
        if not is_date(c[0]):
            bad.append('%s: first column %r is not an ISO date' % (at, c[0]))
        for key in (('claim', c[0], c[1]), ('measurement', c[2], c[3], c[4])):
            if key in seen:
                bad.append('%s: the same %s as line %d' % (at, key[0], seen[key]))
            seen.setdefault(key, n)
        for target in LINK.findall(c[6]):
            if not os.path.exists(os.path.normpath(os.path.join(where, target))):
                bad.append('%s: linked file %s does not exist' % (at, target))
    return bad


def check_archives(src):
    bad = []
    data = os.path.join(src, 'docs', 'results', 'data')
    for md in sorted(glob.glob(os.path.join(src, 'docs', 'results', '*.md'))):
        for n, line in enumerate(open(md, encoding='utf-8').read().split('\n'), 1):
            for arch in ARCHIVE.findall(line):
                if not PLACEHOLDER.match(arch) and not os.path.isfile(os.path.join(data, arch)):
                    bad.append('%s:%d: data/%s does not exist' % (os.path.relpath(md, src), n, arch))
    return bad


def tree_files(src):
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src).replace(os.sep, '/')
        rel = '' if rel == '.' else rel + '/'
        dirs[:] = [d for d in dirs if (rel + d) not in SKIP_DIRS and not d.startswith('build')
                   and (d == '.ci' or not d.startswith('.'))]  # build trees, .git, carried .gpu*
        for f in sorted(files):
            if rel + f not in SKIP_FILES:
                yield rel + f


def check_self_refs(src):
    bad, pats = [], [(re.compile(p, re.I), what) for p, what in SELF_REFS]
    for rel in tree_files(src):
        if SELF_REF_NAME.search(rel):
            bad.append('%s: the file name names a session of work or an issue by number' % rel)
        if os.path.splitext(rel)[1] not in TEXT_EXT:
            continue
        try:
            text = open(os.path.join(src, rel), encoding='utf-8').read()
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.split('\n'), 1):
            for pat, what in pats:
                m = pat.search(line)
                if m:
                    bad.append('%s:%d: names %s: %r' % (rel, n, what, m.group(0)))
                    break
    return bad


def main(src):
    readme = os.path.join(src, 'docs', 'results', 'README.md')
    rows = table_rows(open(readme, encoding='utf-8').read())
    bad = check_rows(readme, rows) + check_archives(src) + check_self_refs(src)
    for b in bad:
        print('FAIL:', b)
    if not bad:
        print('PASS: %d result rows dated, none twice, links and archives present; no self-reference'
              ' by session or issue number' % len(rows))
    return 1 if bad or not rows else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else '.'))
