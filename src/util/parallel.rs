//! Running independent jobs on a fixed number of threads, results in input order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// `mutex`, locked even if a thread panicked while it held it: what clings shares between
/// threads is left consistent by every change (one push, remove or replacement), and a
/// panic in one thread must not stop the others (Ctrl-C's kills, waiting compiles).
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits for `condvar` to be notified, taking the lock back as [`lock`] does.
pub fn wait<'a, T>(condvar: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    condvar.wait(guard).unwrap_or_else(PoisonError::into_inner)
}

/// The number of threads to use when the user did not say: one per core. Found once:
/// finding the cores reads the cgroup's CPU quota, several files.
pub fn default_jobs() -> usize {
    static JOBS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *JOBS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A task for a kept thread.
type Task = Box<dyn FnOnce() + Send>;

/// Runs `task` on a thread of its own, one that an earlier task ran on if one is idle:
/// each run's output is read on two threads, and starting two new ones for each run of a
/// fast case costs a tenth of the run. Threads are kept for the life of the process, as
/// many as ever ran tasks at once. Only for clings itself: a forked child (the sandbox's
/// helper) has none of them.
pub fn on_kept_thread(task: impl FnOnce() + Send + 'static) {
    static IDLE: Mutex<Vec<std::sync::mpsc::Sender<Task>>> = Mutex::new(Vec::new());
    let mut task: Task = Box::new(task);
    while let Some(idle) = lock(&IDLE).pop() {
        match idle.send(task) {
            Ok(()) => return,
            // Its thread is gone (it could not be started): the next, or a new one.
            Err(unsent) => task = unsent.0,
        }
    }
    let (give, take) = std::sync::mpsc::channel::<Task>();
    let started = std::thread::Builder::new()
        .name("kept".into())
        .spawn(move || {
            let mut task = task;
            loop {
                task();
                lock(&IDLE).push(give.clone());
                match take.recv() {
                    Ok(next) => task = next,
                    Err(_) => return,
                }
            }
        });
    started.expect("cannot start a thread");
}

/// Applies `work` to every item on up to `jobs` threads; the results keep the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], jobs: usize, work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    let result = work(item);
                    *slots[index].lock().expect("result slot") = Some(result);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .expect("result slot")
                .expect("every item was processed")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_order_with_many_threads() {
        let items: Vec<u32> = (0..50).collect();
        let doubled = super::map(&items, 4, |n| n * 2);
        assert_eq!(doubled, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert!(super::map(&Vec::<u32>::new(), 3, |n| *n).is_empty());
    }

    #[test]
    fn kept_threads_run_every_task_and_are_used_again() {
        let (done, finished) = std::sync::mpsc::channel();
        let mut threads = std::collections::HashSet::new();
        for task in 0..10 {
            let done = done.clone();
            super::on_kept_thread(move || {
                let _ = done.send((task, std::thread::current().id()));
            });
            let (ran, thread) = finished.recv().unwrap();
            assert_eq!(ran, task);
            threads.insert(thread);
            // Time for the thread to be idle again.
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(threads.len() < 10, "a new thread for every task");
    }
}
