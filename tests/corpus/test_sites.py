"""The fixture sites themselves: enough of them, each documented, self-contained."""
import os
import re
import unittest

import tracekit

FAILURE_FIXTURES = {"root-404", "hung-page"}
# Files that failed-requests references on purpose and that must not exist.
MISSING_ON_PURPOSE = re.compile(r"(^|/)missing\.\w+$|(^|/)slow/")
LOCAL_REF = re.compile(r"""(?:src|href)\s*=\s*["']([^"'#]+)["']|url\(\s*["']?([^"')]+)["']?\s*\)"""
                       r"""|new Worker\(\s*["']([^"']+)["']|from\s+["'](\.[^"']+)["']""")
EXTERNAL = re.compile(r"https?://(?!127\.0\.0\.1|www\.w3\.org/2000/svg)[\w.-]+", re.I)


def site_files(site):
    root = os.path.join(tracekit.SITES, site)
    for folder, _, files in os.walk(root):
        for name in files:
            yield os.path.join(folder, name)


class FixtureSites(unittest.TestCase):
    def test_at_least_thirty_sites_besides_the_failure_fixtures(self):
        sites = set(tracekit.site_names())
        self.assertTrue(FAILURE_FIXTURES <= sites, "root-404 and hung-page must exist")
        self.assertGreaterEqual(len(sites - FAILURE_FIXTURES), 30, sorted(sites))

    def test_every_site_states_its_purpose_in_one_line(self):
        for site in tracekit.site_names():
            with self.subTest(site=site):
                path = os.path.join(tracekit.SITES, site, "PURPOSE")
                with open(path, encoding="utf-8") as f:
                    lines = [l for l in f.read().splitlines() if l.strip()]
                self.assertEqual(len(lines), 1, path)
                self.assertGreater(len(lines[0]), 30, path)

    def test_every_site_is_listed_in_both_readmes(self):
        for readme in ("README.md", os.path.join("sites", "README.md")):
            with open(os.path.join(tracekit.CORPUS, readme), encoding="utf-8") as f:
                text = f.read()
            for site in tracekit.site_names():
                with self.subTest(readme=readme, site=site):
                    self.assertIn("`%s`" % site, text)

    def test_pages_have_an_index_except_the_404_fixture(self):
        for site in tracekit.site_names():
            with self.subTest(site=site):
                has_index = os.path.isfile(os.path.join(tracekit.SITES, site, "index.html"))
                self.assertEqual(has_index, site not in ("root-404", "hung-page"))

    def test_no_page_reaches_outside_the_local_server(self):
        for site in tracekit.site_names():
            for path in site_files(site):
                if path.endswith((".html", ".css", ".js", ".mjs")):
                    with open(path, encoding="utf-8") as f:
                        found = EXTERNAL.findall(f.read())
                    self.assertEqual(found, [], path)

    def test_local_references_resolve(self):
        """Every src/href/url()/import/Worker path names a file that exists,
        except the failed-requests site's deliberately missing ones."""
        checked = 0
        for site in tracekit.site_names():
            for path in site_files(site):
                if not path.endswith((".html", ".css", ".js", ".mjs")):
                    continue
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                for groups in LOCAL_REF.findall(text):
                    ref = next(g for g in groups if g).split("?")[0]
                    if ref.startswith(("data:", "http:", "https:", "about:")) or not ref:
                        continue
                    if site == "failed-requests" and MISSING_ON_PURPOSE.search(ref):
                        continue
                    base = tracekit.SITES if ref.startswith("/") else os.path.dirname(path)
                    target = os.path.normpath(os.path.join(base, ref.lstrip("/")))
                    with self.subTest(page=path, ref=ref):
                        self.assertTrue(os.path.isfile(target), target)
                    checked += 1
        self.assertGreater(checked, 60)


if __name__ == "__main__":
    unittest.main()
