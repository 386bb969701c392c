//! A stop is a request to one run: stopping one solver leaves another, on another thread,
//! to finish its work. No timing is involved: the order of events is fixed by channels.

use std::ops::ControlFlow;
use std::sync::mpsc;

use cpsolve_engine::constraints::all_different_shifted;
use cpsolve_engine::{SearchConfig, Solver, Stop, StopToken};

fn queens(n: u32) -> Solver {
    let mut solver = Solver::new();
    let q: Vec<_> = (0..n).map(|_| solver.new_var(0, i64::from(n) - 1).unwrap()).collect();
    all_different_shifted(&mut solver, &q);
    solver
}

#[test]
fn stopping_one_solver_leaves_the_other_to_finish_its_count() {
    let (started, running) = mpsc::channel();
    let endless_stop = StopToken::new();
    let endless = {
        let stop = endless_stop.clone();
        std::thread::spawn(move || {
            // 10^40 solutions: this search ends only when it is asked to.
            let mut solver = Solver::new();
            solver.set_stop_token(stop);
            for _ in 0..40 {
                solver.new_var(0, 9).unwrap();
            }
            let mut told = false;
            solver.search(&SearchConfig::default(), |_| {
                if !told {
                    started.send(()).unwrap();
                    told = true;
                }
                ControlFlow::Continue(())
            })
        })
    };
    running.recv().unwrap();
    endless_stop.request(Stop::Time);
    // Asked while the endless search still runs (it cannot finish): a process-wide stop
    // would end this count too.
    let counted = std::thread::spawn(|| queens(8).search(&SearchConfig::default(), |_| ControlFlow::Continue(())))
        .join()
        .unwrap();
    assert_eq!(counted.stopped, None);
    assert_eq!(counted.solutions, 92, "OEIS A000170");
    assert_eq!(endless.join().unwrap().stopped, Some(Stop::Time));
}

#[test]
fn a_requested_stop_ends_building_and_searching() {
    let stop = StopToken::new();
    let mut solver = queens(6);
    solver.set_stop_token(stop.clone());
    stop.request(Stop::Memory);
    assert_eq!(solver.new_var(0, 1), Err(cpsolve_engine::ModelError::Interrupted));
    let outcome = solver.search(&SearchConfig::default(), |_| ControlFlow::Continue(()));
    assert_eq!(outcome.stopped, Some(Stop::Memory));
    assert_eq!(outcome.solutions, 0);
}
