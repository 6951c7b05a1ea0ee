#!/usr/bin/env python3
"""Compiles and runs every code block of docs/tutorial.md (or of one section
of another page of docs/).

The page is read top to bottom in an empty directory:
  * a fenced block right after `<!-- file: NAME -->` is written to NAME;
  * every ```sh block is run with bash (-e, -u, pipefail), under a timeout,
    and must succeed;
  * an ```text block right after `<!-- output -->` is the exact standard
    output of the sh block before it.
poc++ comes from an installation of the build tree into a scratch prefix
(as a user would have it), which is also `$POC_PREFIX` for the CMake step.

  run_tutorial.py TUTORIAL.md BUILD_DIR [SECTION]

SECTION: the start of a `## ` heading; only the blocks under it run.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\S*)\s*$")
FILE_MARK = re.compile(r"^<!-- file: (\S+) -->\s*$")
OUTPUT_MARK = re.compile(r"^<!-- output -->\s*$")
BLOCK_TIMEOUT = 300


def blocks(path, section=None):
    """(kind, language, text, line) for each fenced block (of `section`, if
    given); kind is 'file:NAME', 'output' or None, from the marker on the
    line before the fence."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i, mark = [], 0, None
    inside = section is None
    while i < len(lines):
        if lines[i].startswith("## ") and section is not None:
            inside = lines[i].startswith("## " + section)
        m = FENCE.match(lines[i])
        if not m:
            fm, om = FILE_MARK.match(lines[i]), OUTPUT_MARK.match(lines[i])
            mark = "file:" + fm.group(1) if fm else "output" if om else (mark if not lines[i].strip() else None)
            i += 1
            continue
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        if j == len(lines):
            sys.exit("%s:%d: unterminated code block" % (path, i + 1))
        if inside:
            out.append((mark, m.group(1), "\n".join(lines[start:j]) + "\n", i + 1))
        mark = None
        i = j + 1
    return out


def main():
    tutorial, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    section = sys.argv[3] if len(sys.argv) > 3 else None
    work = tempfile.mkdtemp(prefix="poc-tutorial-")
    try:
        prefix = os.path.join(work, "prefix")
        subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        tree = os.path.join(work, "tutorial")
        os.makedirs(tree)
        env = dict(os.environ, POC_PREFIX=prefix,
                   PATH=os.path.join(prefix, "bin") + ":" + os.environ["PATH"])
        last = None  # (stdout, line) of the last sh block
        ran = 0
        for kind, lang, text, line in blocks(tutorial, section):
            where = "%s:%d" % (tutorial, line)
            if kind and kind.startswith("file:"):
                name = os.path.join(tree, kind[5:])
                os.makedirs(os.path.dirname(name), exist_ok=True)
                with open(name, "w", encoding="utf-8") as f:
                    f.write(text)
            elif kind == "output":
                if last is None:
                    sys.exit("%s: an output block with no command before it" % where)
                if last[0] != text:
                    print("%s: the commands at line %d printed:\n%s\nexpected:\n%s" %
                          (where, last[1], last[0], text))
                    return 1
                last = None
            elif lang == "sh":
                try:
                    p = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=tree, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, timeout=BLOCK_TIMEOUT)
                except subprocess.TimeoutExpired:
                    print("%s: the commands did not finish within %d s" % (where, BLOCK_TIMEOUT))
                    return 1
                if p.returncode != 0:
                    print("%s: the commands failed (exit status %d):\n%s%s" %
                          (where, p.returncode, p.stdout, p.stderr))
                    return 1
                last = (p.stdout, line)
                ran += 1
        if ran == 0:
            print("%s: no command block to run%s" % (tutorial, " in section " + section if section else ""))
            return 1
        print("tutorial: %d command blocks ran as written" % ran)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
