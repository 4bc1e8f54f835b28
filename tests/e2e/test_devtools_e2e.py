"""Issue 4's checks: the census over the manual's own example events
reproduces the manual's DevTools facts (undeclared args, unknown names,
recording coverage). Expectations come from tests/schema/manual_expectations.json,
which tools/schema/manual_expectations.js extracts from the manual."""
import json
import os
import unittest

from e2e_common import ROOT, load, run_census

EXAMPLES = os.path.join(ROOT, 'tests', 'schema', 'manual_examples.json')
EXPECT = os.path.join(ROOT, 'tests', 'schema', 'manual_expectations.json')


class ManualExamples(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rc, err, out = run_census([EXAMPLES], threads=2)
        assert rc == 0, err
        cls.doc = load(out)
        cls.census = {e['name']: e for e in cls.doc['events']}
        with open(EXPECT) as f:
            cls.entries = json.load(f)['entries']

    def with_example(self):
        return [e for e in self.entries if e['has_example']]

    def test_every_example_was_counted(self):
        for e in self.with_example():
            self.assertIn(e['name'], self.census)

    def test_devtools_known(self):
        for e in self.with_example():
            self.assertEqual(self.census[e['name']]['devtools_known'], e['devtools_known'], e['name'])

    def test_unknown_names_have_no_undeclared_list(self):
        unknown = [e for e in self.with_example() if not e['devtools_known']]
        self.assertGreaterEqual(len(unknown), 5)
        for e in unknown:
            self.assertEqual(self.census[e['name']]['undeclared_args'], [], e['name'])

    def test_undeclared_args_match_the_manual(self):
        checked = exact = 0
        for e in self.with_example():
            if not e['devtools_known']:
                continue
            c = self.census[e['name']]
            seen = {a['path'] for a in c['args']}
            listed_here = {p for p in e['undeclared_args'] if p in seen}
            got = set(c['undeclared_args'])
            self.assertLessEqual(listed_here, got, e['name'])
            checked += len(listed_here)
            if e['undeclared_complete']:
                self.assertEqual(got, listed_here, e['name'])
                exact += 1
            else:
                self.assertLessEqual(len(got), len(e['undeclared_args']) + e['undeclared_more'], e['name'])
        # 83 of the manual's 93 listed paths occur in its examples.
        self.assertEqual(checked, 83)
        self.assertGreaterEqual(exact, 30)

    def test_recording_coverage(self):
        """The manual's three levels. Where it says "contains this event only
        with ... turned on", the census says the same sentence word for word.
        Where it says "does not contain this event" the events are on blink
        or cc, which DevTools records only with Show all events on (the
        manual says so in its Traps): the census names that setting."""
        levels = {'default': 0, 'optional': 0, 'never': 0}
        for e in self.with_example():
            c = self.census[e['name']]
            rec = c['devtools_recording']
            self.assertEqual(c['in_devtools_recording'], e['recording'] == 'default', e['name'])
            levels[e['recording']] += 1
            if e['recording'] == 'default':
                self.assertEqual((rec['level'], rec['sentence']), ('default', None), e['name'])
            elif e['recording'] == 'optional':
                self.assertEqual(rec['level'], 'with_setting', e['name'])
                self.assertEqual(rec['category'], e['recording_requires'], e['name'])
                self.assertEqual(rec['sentence'], e['recording_sentence'], e['name'])
            else:
                self.assertEqual(rec['settings'], ['Show all events'], e['name'])
                self.assertIn(rec['category'], e['recording_sentence'], e['name'])
                self.assertEqual(rec['sentence'],
                                 'A DevTools Performance recording contains this event only with '
                                 'Show all events turned on, which records %s.' % rec['category'])
        self.assertTrue(all(levels.values()), levels)

    def test_declared_never_observed(self):
        never = set(self.doc['declared_never_observed'])
        for name in ('CompositeLayers', 'ComputeIntersections'):
            self.assertIn(name, never)
        for name in self.census:
            self.assertNotIn(name, never)
        self.assertIn('trace_engine', self.doc['devtools_schema']['generator'])


if __name__ == '__main__':
    unittest.main()
