#!/usr/bin/env python3
"""Every measurement a document cites names data that exists (docs/results/README.md): each
`data/ARCHIVE.tar.xz[:PATH]` in docs/ is a file of docs/results/data/ and PATH (a glob, with
{a,b} alternatives) matches a member of it; every archive there is cited somewhere.
Usage: docs_data_refs.py SOURCE_DIR"""
import fnmatch
import glob
import os
import re
import sys
import tarfile

REF = re.compile(r'data/([0-9]{4}-[0-9]{2}-[0-9]{2}-[a-z0-9-]+\.tar\.xz)(?::([A-Za-z0-9._*{},+/-]+))?')


def braces(p):
    m = re.search(r'\{([^{}]*)\}', p)
    if not m:
        return [p]
    return [q for alt in m.group(1).split(',') for q in braces(p[:m.start()] + alt + p[m.end():])]


def main(src):
    data = os.path.join(src, 'docs', 'results', 'data')
    members, cited, bad = {}, set(), []
    for md in sorted(glob.glob(os.path.join(src, 'docs', '**', '*.md'), recursive=True)):
        text = open(md, encoding='utf-8').read()
        for m in REF.finditer(text):
            arch, path = m.group(1), (m.group(2) or '').rstrip('.,)')
            cited.add(arch)
            where = '%s: data/%s%s' % (os.path.relpath(md, src), arch, ':' + path if path else '')
            if arch not in members:
                f = os.path.join(data, arch)
                try:
                    with tarfile.open(f, 'r:xz') as t:
                        members[arch] = [n.lstrip('./') + ('/' if i.isdir() else '')
                                         for i in t.getmembers() for n in [i.name]]
                except (OSError, tarfile.TarError) as e:
                    members[arch] = None
                    bad.append('%s: unreadable archive (%s)' % (where, e))
            if not path or members[arch] is None:
                continue
            for p in braces(path):
                if not any(fnmatch.fnmatchcase(n, p) or n.startswith(p.rstrip('/') + '/') for n in members[arch]):
                    bad.append('%s: no member matches %s' % (where, p))
    for f in sorted(os.listdir(data)):
        if f not in cited:
            bad.append('docs/results/data/%s: cited by no document' % f)
    for b in bad:
        print('FAIL:', b)
    if not bad:
        print('PASS: %d archives, every citation names a member' % len(cited))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else '.'))
