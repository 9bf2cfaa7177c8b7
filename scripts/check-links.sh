#!/usr/bin/env bash
# Checks the README and the manual: README.md is at most 300 lines, and every relative link and anchor in
# README.md and docs/**/*.md resolves — the file exists, and a #fragment names a heading of that page (as
# GitHub makes anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered -1, -2, …).
# Links to other sites (http:, https:, mailto:) are not fetched. Prints each broken link as FILE:LINE and
# exits 1 when there is any.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import pathlib
import re
import sys
import urllib.parse

MAX_README_LINES = 300
root = pathlib.Path(".").resolve()
pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
problems = []


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with inline code spans blanked."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * len(marker.group(1))
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is None:
            yield number, re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), line)


def anchors(path):
    """The anchors GitHub gives the headings of a Markdown page."""
    seen = {}
    result = set()
    fence = None
    for line in path.read_text(encoding="utf-8").split("\n"):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker:
            fence = None if fence else marker.group(1)
            continue
        heading = None if fence else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1))
        text = re.sub(r"<[^>]+>", "", text)
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        result.add(slug if count == 0 else f"{slug}-{count}")
    return result


readme_lines = (root / "README.md").read_text(encoding="utf-8").count("\n")
if readme_lines > MAX_README_LINES:
    problems.append(f"README.md: {readme_lines} lines, more than {MAX_README_LINES}: move text into docs/")

anchor_cache = {}
checked = 0
for page in pages:
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for match in re.finditer(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line):
            target = match.group(1)
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
                continue
            checked += 1
            where = f"{page.relative_to(root)}:{number}"
            path_part, _, fragment = target.partition("#")
            file = page if not path_part else (page.parent / urllib.parse.unquote(path_part)).resolve()
            if not file.exists():
                problems.append(f"{where}: {target}: no such file")
                continue
            if fragment:
                if file.suffix != ".md":
                    problems.append(f"{where}: {target}: an anchor into a file that is not Markdown")
                    continue
                if file not in anchor_cache:
                    anchor_cache[file] = anchors(file)
                if urllib.parse.unquote(fragment) not in anchor_cache[file]:
                    problems.append(f"{where}: {target}: no heading makes the anchor #{fragment}")

for problem in problems:
    print(problem, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"README.md: {readme_lines} lines; {checked} relative links in {len(pages)} pages resolve")
PY
