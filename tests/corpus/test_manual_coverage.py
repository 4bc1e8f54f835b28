"""At least 30 of the manual's event names occur in the bundled crawl.

The names come from the manual itself (each entry's JSON example), read at
test time. Only events in the fixture sites' own renderer processes count, so
the coverage is the sites' doing, not the browser's.
"""
import unittest

import tracekit
from test_bundled_crawl import crawl_available, crawl_results


class ManualNames(unittest.TestCase):
    def test_the_manual_lists_its_entries_example_events(self):
        names = tracekit.manual_event_names()
        self.assertGreaterEqual(len(names), 30)
        self.assertEqual(len(names), len(set(names)), "one example per entry")
        self.assertIn("Blink.ForcedStyleAndLayout.UpdateTime", names)


@unittest.skipUnless(crawl_available(), "no bundled crawl at corpus/crawl")
@unittest.skipUnless(tracekit.have_zstd(), "the zstd command is needed to read corpus/crawl")
class ManualCoverage(unittest.TestCase):
    def test_at_least_thirty_manual_events_occur_in_the_sites(self):
        manual = tracekit.manual_event_names()
        _, site_names, _ = crawl_results()
        seen = set().union(*site_names.values())
        covered = sorted(n for n in manual if n in seen)
        missing = sorted(n for n in manual if n not in seen)
        self.assertGreaterEqual(len(covered), 30, "covered %d of %d; missing %s" % (
            len(covered), len(manual), missing))


if __name__ == "__main__":
    unittest.main()
