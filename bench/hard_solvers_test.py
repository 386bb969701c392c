#!/usr/bin/env python3
"""Checks of how bench/hard.sh reads its solvers' outputs, on outputs written out here (no
solver runs): cpsolve's JSON object, the MiniZinc text output Chuffed and Huub print, and the
summary's "who has the best objective".  A benchmark helper, not a CI test:
`python3 bench/hard_solvers_test.py` (standard library only, well under a second)."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hard_bench import best_solvers, judge  # noqa: E402
from hard_solvers import read_cli_json  # noqa: E402
from minizinc_bench import read_output  # noqa: E402

MINIMIZE = {'method': 'minimize', 'status': 'complete', 'objective': 78}
SATISFY = {'method': 'satisfy', 'status': 'solution', 'objective': None}


def cli(obj, rc=0, killed=False, entry=MINIMIZE):
    return read_cli_json(json.dumps(obj) + '\n', '', rc, 5.0, killed, entry)


class CliJson(unittest.TestCase):
    def test_limit_with_solutions_is_the_best_objective_not_proved(self):
        r = cli({'status': 'limit', 'optimal': False, 'count': 6, 'solutions': [], 'objective': 79,
                 'stopped': 'time', 'stats': {'nodes': 10062, 'failures': 7194, 'time_ms': 4587.8}}, rc=3)
        self.assertEqual((r['status'], r['objective'], r['nodes']), ('SATISFIED', 79, 10062))
        self.assertEqual(judge(MINIMIZE, r), (False, '', ''))

    def test_proved_optimum(self):
        r = cli({'status': 'solved', 'optimal': True, 'count': 3, 'objective': 78})
        self.assertEqual((r['status'], r['objective']), ('OPTIMAL', 78))
        self.assertEqual(judge(MINIMIZE, r)[0], True)

    def test_a_proved_optimum_that_differs_is_wrong(self):
        r = cli({'status': 'solved', 'optimal': True, 'count': 3, 'objective': 80})
        self.assertIn('claims optimum 80', judge(MINIMIZE, r)[1])

    def test_limit_without_solution_is_a_timeout(self):
        r = cli({'status': 'limit', 'count': 0, 'stopped': 'time'}, rc=3)
        self.assertEqual((r['status'], r['objective']), ('TIMEOUT', None))

    def test_first_solution_of_a_satisfaction_problem_is_proved(self):
        r = cli({'status': 'solved', 'count': 1, 'solutions': [{}]}, entry=SATISFY)
        self.assertEqual(r['status'], 'SATISFIED')
        self.assertEqual(judge(SATISFY, r)[0], True)

    def test_unsatisfiable_claim_on_a_satisfiable_instance_is_wrong(self):
        r = cli({'status': 'unsatisfiable', 'count': 0}, rc=1, entry=SATISFY)
        self.assertEqual(r['status'], 'UNSAT')
        self.assertIn('claims UNSAT', judge(SATISFY, r)[1])

    def test_error_object_and_no_object(self):
        r = cli({'status': 'error', 'errors': [{'message': 'bad', 'line': 3, 'column': 1}]}, rc=2)
        self.assertEqual((r['status'], r['reason']), ('ERROR', 'bad (line 3)'))
        r = read_cli_json('', 'thread main panicked\n', 101, 1.0, False, MINIMIZE)
        self.assertEqual(r['status'], 'ERROR')
        self.assertIn('panicked', r['reason'])

    def test_killed(self):
        self.assertEqual(cli({}, rc=-9, killed=True)['status'], 'TIMEOUT')


class TextOutput(unittest.TestCase):
    def test_huub_optimum_with_objective_lines(self):
        out = ('objective = 80;\n_objective = 80;\n----------\nobjective = 78;\n_objective = 78;\n----------\n'
               '%%%mzn-stat: failures=51143\n%%%mzn-stat-end\n==========\n')
        r = read_output(out, '', 0, 3.4, False, 10)
        self.assertEqual((r['status'], r['objective'], r['failures']), ('OPTIMAL', 78, '51143'))

    def test_chuffed_exception_is_an_error_with_its_reason(self):
        r = read_output('', 'UNKNOWN EXCEPTION.\n', 1, 1.1, False, 10)
        self.assertEqual((r['status'], r['reason']), ('ERROR', 'UNKNOWN EXCEPTION.'))

    def test_compile_cut_by_the_limit_is_a_timeout(self):
        r = read_output('=====UNKNOWN=====\n', 'mzn-wasm: hard kill after 10 s\n', 0, 10.0, False, 10)
        self.assertEqual(r['status'], 'TIMEOUT')


class BestObjective(unittest.TestCase):
    def run_of(self, obj, wrong=''):
        return {'objective': obj, 'wrong': wrong}

    def test_ties_count_for_each_and_no_solution_never_wins(self):
        runs = {'cpsolve': self.run_of(1058), 'huub': self.run_of(None), 'cpsolve-cli': self.run_of(1058),
                'chuffed': self.run_of(6035)}
        self.assertEqual(best_solvers('minimize', runs), ['cpsolve', 'cpsolve-cli'])
        self.assertEqual(best_solvers('maximize', runs), ['chuffed'])

    def test_a_wrong_objective_does_not_win(self):
        runs = {'gecode': self.run_of(70, wrong='objective 70 beats the known optimum 78'),
                'huub': self.run_of(78)}
        self.assertEqual(best_solvers('minimize', runs), ['huub'])
        self.assertEqual(best_solvers('minimize', {'huub': self.run_of(None)}), [])


if __name__ == '__main__':
    unittest.main()
