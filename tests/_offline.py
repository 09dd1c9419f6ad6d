"""What a rendered HTML page would fetch from the network when opened: remote scripts, stylesheets, images,
frames, CSS ``@import``/``url()`` and JavaScript module imports (``http:``, ``https:`` or protocol-relative)."""

import re
from html.parser import HTMLParser

REMOTE = r"(?:https?:)?//"
_CSS = re.compile(rf"""(@import\s+(?:url\()?|url\()\s*["']?({REMOTE}[^"')\s]+)""", re.I)
_JS_IMPORT = re.compile(rf"""\bimport\s*\(\s*["']({REMOTE}[^"']+)["']""")
_TAG_ATTRS = {
    "script": "src",
    "link": "href",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "embed": "src",
    "audio": "src",
    "video": "src",
}


class _Scanner(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._tag = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        url = attrs.get(_TAG_ATTRS.get(tag, ""))
        if url and re.match(REMOTE, url.strip(), re.I):
            self.found.append(f"<{tag} {_TAG_ATTRS[tag]}={url.strip()}>")
        if attrs.get("style"):
            self.found += [f"style {m.group(1).strip()}{m.group(2)}" for m in _CSS.finditer(attrs["style"])]
        self._tag = tag

    def handle_data(self, data):
        if self._tag == "style":
            self.found += [f"{m.group(1).strip()}{m.group(2)}" for m in _CSS.finditer(data)]
        elif self._tag == "script":
            self.found += [f"import({m.group(1)})" for m in _JS_IMPORT.finditer(data)]

    def handle_endtag(self, tag):
        self._tag = None


def remote_fetches(html: str) -> list[str]:
    """Each remote resource ``html`` loads, as ``<tag attr=url>``, ``@import url`` or ``import(url)``."""
    scanner = _Scanner()
    scanner.feed(html)
    scanner.close()
    return scanner.found
