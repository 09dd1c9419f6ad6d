"""The scanner behind the pipeline's offline check (tests/_offline.py) finds each kind of remote fetch, and
nothing in a page that loads only what it carries."""

from _offline import remote_fetches

REMOTE = """<html><head>
<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"></script>
<link rel="stylesheet" href="//fonts.example.org/css">
<style>@import url("http://example.org/a.css"); body {background: url(https://example.org/b.png)}</style>
<script type="module">const m = (await import("https://cdn.example.org/mermaid.mjs")).default;</script>
</head><body><img src="https://example.org/c.png"><div style="background:url('//example.org/d.png')"></div>
</body></html>"""

LOCAL = """<html><head><script>var s = '<script src="https://x.org/y.js">'; var u = "https://x.org";</script>
<style>body {background: url(data:image/png;base64,AAAA)}</style><link rel="stylesheet" href="local.css">
</head><body><a href="https://example.org/paper">a link is not a fetch</a><img src="data:image/png;base64,AAAA">
</body></html>"""


def test_every_kind_of_remote_fetch_is_found():
    assert remote_fetches(REMOTE) == [
        "<script src=https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js>",
        "<link href=//fonts.example.org/css>",
        "@import url(http://example.org/a.css",
        "url(https://example.org/b.png",
        "import(https://cdn.example.org/mermaid.mjs)",
        "<img src=https://example.org/c.png>",
        "style url(//example.org/d.png",
    ]


def test_links_data_urls_and_strings_inside_scripts_are_not_fetches():
    assert remote_fetches(LOCAL) == []
