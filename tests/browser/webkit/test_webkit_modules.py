"""Import maps in WebKit (Safari 16.4 and later; WebKitGTK here): a module imported by its plain name
comes by its content-hashed name, and so does the module it imports, with the page's policy
letting the import map run by its hash."""

from __future__ import annotations

import re

HASHED = re.compile(r"/static/[\w.-]+\.[0-9a-f]{8}\.js$")

IMPORT = """
const done = arguments[arguments.length - 1];
import("/static/copy.js").then(
  (module) => done({exported: Object.keys(module).sort(),
                    fetched: performance.getEntriesByType("resource").map((entry) => entry.name)}),
  (error) => done({error: String(error)}));
"""


def test_a_module_imports_another_through_the_import_map_in_webkit(server, webkit):
    phone = webkit()
    phone.goto(server + "/")
    assert phone.evaluate("HTMLScriptElement.supports && HTMLScriptElement.supports('importmap')")
    found = phone.driver.execute_async_script(IMPORT)
    assert "fold" in found.get("exported", []), found
    scripts = [url for url in found["fetched"] if "/static/copy." in url or "/static/rules." in url]
    assert len(scripts) == 2 and all(HASHED.search(url) for url in scripts), scripts
