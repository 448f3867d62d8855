//! The thread behind a Python `Solver`. csp-core's `Solver` borrows its model, so a
//! search that lives across Python calls (`solve()` again for the next solution, a lazy
//! `solutions()` iterator) lives on a thread that owns the model and the search on its
//! stack and answers requests one at a time. The caller waits for each answer as
//! `interrupt::wait` does: without the GIL, and interruptible by Ctrl-C.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};

use csp_core::{
    ConfigError, Count, LimitKind, LnsConfig, LnsSolver, Model, Optimum, Outcome, ParallelSolver,
    Parallelism, SearchConfig, Solver, Stats, VarId,
};
use pyo3::prelude::*;

use crate::errors::{panic_error, solver_gone, value_error};
use crate::interrupt::wait;

/// What the Python side asks of the search.
pub(crate) enum Request {
    /// The next solution.
    Solve,
    /// Count the remaining solutions, up to a cap.
    Count(Option<u64>),
    /// Optimise the model's objective, or minimise or maximise a variable.
    Optimize(Goal),
}

/// What to optimise.
#[derive(Clone, Copy)]
pub(crate) enum Goal {
    /// The model's objective.
    Objective,
    /// The smallest value of a variable.
    Minimize(VarId),
    /// The largest value of a variable.
    Maximize(VarId),
}

/// The answer to a request.
pub(crate) enum Answer {
    /// The search is ready (the answer to its creation).
    Ready,
    /// The answer to [`Request::Solve`].
    Outcome(Outcome),
    /// The answer to [`Request::Count`].
    Count(Count),
    /// The answer to [`Request::Optimize`].
    Optimum(Optimum),
}

/// An answer with the statistics after it, or why there is none.
pub(crate) type Reply = Result<(Answer, Stats), Failure>;

/// Why a request has no answer.
pub(crate) enum Failure {
    /// The configuration (or the optimisation asked) does not fit the model.
    Config(ConfigError),
    /// A panic, caught: the search is gone.
    Panic(Box<dyn std::any::Any + Send>),
}

impl Failure {
    /// The Python exception.
    pub(crate) fn into_py(self) -> PyErr {
        match self {
            Failure::Config(e) => value_error(e),
            Failure::Panic(payload) => panic_error(payload),
        }
    }
}

/// The Python side's handle on the search thread.
pub(crate) struct Worker {
    requests: Sender<Request>,
    replies: Mutex<Receiver<Reply>>,
    /// The search's cancel flag (Ctrl-C).
    cancel: Arc<AtomicBool>,
}

impl Worker {
    /// Starts the thread and prepares the search (compiling the model can take a while on
    /// large models: interruptible too). `config`'s cancel flag must be `cancel`.
    pub(crate) fn start(
        py: Python<'_>,
        model: Model,
        config: SearchConfig,
        lns: Option<LnsConfig>,
        parallelism: Parallelism,
        cancel: Arc<AtomicBool>,
    ) -> PyResult<(Worker, Stats)> {
        let (requests, incoming) = channel();
        let (outgoing, replies) = sync_channel(1);
        std::thread::Builder::new()
            .name("csp solver".into())
            .spawn(move || serve(model, config, lns, parallelism, incoming, outgoing))
            .map_err(|e| {
                pyo3::exceptions::PyOSError::new_err(format!("cannot start a search thread: {e}"))
            })?;
        let worker = Worker {
            requests,
            replies: Mutex::new(replies),
            cancel,
        };
        let (_, stats) = worker.wait(py, |_| {})?.map_err(Failure::into_py)?;
        Ok((worker, stats))
    }

    /// Sends a request and waits for its reply; on Ctrl-C, `on_cancelled` gets the reply
    /// of the stopped search before the `KeyboardInterrupt` is raised.
    pub(crate) fn ask(
        &self,
        py: Python<'_>,
        request: Request,
        on_cancelled: impl FnOnce(Reply),
    ) -> PyResult<Reply> {
        self.requests.send(request).map_err(|_| solver_gone())?;
        self.wait(py, on_cancelled)
    }

    fn wait(&self, py: Python<'_>, on_cancelled: impl FnOnce(Reply)) -> PyResult<Reply> {
        wait(py, &self.replies, &self.cancel, on_cancelled)
    }
}

/// The thread: builds the search, then answers requests until the Python side is gone
/// (its `Sender` dropped) or a panic has left the search unusable. With `lns`, the
/// model's objective is optimised by a large neighbourhood search of its own, made at the
/// first such request. On several threads, counting and optimising the model's objective
/// run a parallel search each time, over the whole model; the other requests resume the
/// one sequential search.
fn serve(
    model: Model,
    config: SearchConfig,
    lns: Option<LnsConfig>,
    parallelism: Parallelism,
    incoming: Receiver<Request>,
    outgoing: SyncSender<Reply>,
) {
    let for_lns = lns.as_ref().map(|_| config.clone());
    let for_threads = config.clone();
    let created = catch_unwind(AssertUnwindSafe(|| Solver::new(&model, config)));
    let mut solver = match created {
        Ok(Ok(solver)) => solver,
        Ok(Err(e)) => {
            let _ = outgoing.send(Err(Failure::Config(e)));
            return;
        }
        Err(payload) => {
            let _ = outgoing.send(Err(Failure::Panic(payload)));
            return;
        }
    };
    if outgoing
        .send(Ok((Answer::Ready, solver.stats().clone())))
        .is_err()
    {
        return;
    }
    let mut neighbourhoods: Option<LnsSolver<'_>> = None;
    for request in incoming {
        let answered = catch_unwind(AssertUnwindSafe(|| match (&lns, &for_lns, request) {
            (_, _, request @ (Request::Count(_) | Request::Optimize(Goal::Objective)))
                if parallelism.threads > 1 =>
            {
                let mut config = for_threads.clone();
                if let Request::Count(Some(cap)) = request {
                    config.limits.solutions = Some(cap);
                }
                let mut parallel = ParallelSolver::with(&model, config, parallelism)?;
                let answer = match request {
                    // A cap reached is no limit here, as for the sequential count below.
                    Request::Count(_) => Answer::Count(match parallel.count() {
                        Count {
                            solutions,
                            limit: Some(LimitKind::Solutions),
                            ..
                        } => Count {
                            solutions,
                            complete: false,
                            limit: None,
                        },
                        count => count,
                    }),
                    _ => Answer::Optimum(parallel.optimize()?),
                };
                Ok((answer, parallel.stats().clone()))
            }
            (Some(lns), Some(config), Request::Optimize(Goal::Objective)) => {
                let searching = match &mut neighbourhoods {
                    Some(searching) => searching,
                    None => neighbourhoods.insert(LnsSolver::new(&model, config.clone(), lns.clone())?),
                };
                Ok((Answer::Optimum(searching.optimize()?), searching.stats().clone()))
            }
            (_, _, request) => answer(&mut solver, request).map(|answer| (answer, solver.stats().clone())),
        }));
        let reply = match answered {
            Ok(Ok(answered)) => Ok(answered),
            Ok(Err(e)) => Err(Failure::Config(e)),
            Err(payload) => {
                let _ = outgoing.send(Err(Failure::Panic(payload)));
                return;
            }
        };
        if outgoing.send(reply).is_err() {
            return;
        }
    }
}

/// Runs one request.
fn answer(solver: &mut Solver<'_>, request: Request) -> Result<Answer, ConfigError> {
    Ok(match request {
        Request::Solve => Answer::Outcome(solver.solve()),
        Request::Count(None) => Answer::Count(solver.count()),
        Request::Count(Some(cap)) => {
            let mut found = 0u64;
            let limit = if cap == 0 {
                None
            } else {
                solver.for_each_solution(|_| {
                    found += 1;
                    found < cap
                })
            };
            Answer::Count(Count {
                solutions: found,
                complete: limit.is_none() && found < cap,
                limit,
            })
        }
        Request::Optimize(Goal::Objective) => Answer::Optimum(solver.optimize()?),
        Request::Optimize(Goal::Minimize(var)) => Answer::Optimum(solver.minimize(var)?),
        Request::Optimize(Goal::Maximize(var)) => Answer::Optimum(solver.maximize(var)?),
    })
}
