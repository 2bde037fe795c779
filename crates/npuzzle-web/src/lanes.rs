//! Admission: a lane runs at most `workers` jobs at once on blocking threads, with at most
//! `queue` more waiting; past that a job is turned away at once.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::Semaphore;

/// One lane of jobs.
pub struct Lane {
    permits: Arc<Semaphore>,
    /// Jobs admitted and not yet finished (running or waiting).
    admitted: Arc<AtomicUsize>,
    running: Arc<AtomicUsize>,
    capacity: usize,
}

/// Why a job did not run.
pub enum Refused {
    /// The lane and its queue are full.
    Busy,
    /// The job panicked (a bug; the server keeps running).
    Panicked,
}

/// Counts a job as admitted until dropped.
struct Admitted(Arc<AtomicUsize>);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Sets the flag when dropped: a request whose client went away cancels its search.
pub struct CancelOnDrop(pub Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Lane {
    pub fn new(workers: usize, queue: usize) -> Lane {
        let workers = workers.max(1);
        Lane {
            permits: Arc::new(Semaphore::new(workers)),
            admitted: Arc::new(AtomicUsize::new(0)),
            running: Arc::new(AtomicUsize::new(0)),
            capacity: workers.saturating_add(queue),
        }
    }

    /// Jobs running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// Jobs waiting for a turn.
    pub fn waiting(&self) -> usize {
        self.admitted
            .load(Ordering::Relaxed)
            .saturating_sub(self.running())
    }

    /// Runs `job` on a blocking thread when a turn comes, or refuses it at once when the
    /// lane is full. The turn is held until the job ends, even if the caller stops waiting.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        if self.admitted.fetch_add(1, Ordering::Relaxed) >= self.capacity {
            self.admitted.fetch_sub(1, Ordering::Relaxed);
            return Err(Refused::Busy);
        }
        let admitted = Admitted(self.admitted.clone());
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let running = self.running.clone();
        running.fetch_add(1, Ordering::Relaxed);
        tokio::task::spawn_blocking(move || {
            let _held = (permit, admitted);
            let _run = Admitted(running);
            job()
        })
        .await
        .map_err(|_| Refused::Panicked)
    }
}
