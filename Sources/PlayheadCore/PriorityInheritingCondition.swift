import Foundation

/// A mutex with priority inheritance (`PTHREAD_PRIO_INHERIT`) and a condition variable on it: while a real-time
/// thread (the engine's audio thread) waits for the lock, the thread holding it runs at that thread's priority, so
/// a holder held back by a busy machine cannot hold the audio thread back with it (Foundation's `NSLock` and
/// `NSCondition` have no inheritance). The `NSCondition` subset the engine uses. Safe from any thread.
public final class PriorityInheritingCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An unlocked mutex and its condition.
    public init() {
        var attr = pthread_mutexattr_t()
        pthread_mutexattr_init(&attr)
        pthread_mutexattr_setprotocol(&attr, Int32(PTHREAD_PRIO_INHERIT))
        pthread_mutex_init(mutex, &attr)
        pthread_mutexattr_destroy(&attr)
        pthread_cond_init(cond, nil)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock, waiting for it.
    public func lock() { pthread_mutex_lock(mutex) }
    /// Gives the lock back.
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes one thread waiting on the condition (lock held).
    public func signal() { pthread_cond_signal(cond) }
    /// Wakes every thread waiting on the condition (lock held).
    public func broadcast() { pthread_cond_broadcast(cond) }
    /// Gives the lock back, sleeps until signalled, and takes it again (lock held).
    public func wait() { pthread_cond_wait(cond, mutex) }

    /// As `wait()`, but at most until `date` (the wall clock, as `NSCondition`); false when that time came first.
    public func wait(until date: Date) -> Bool {
        let t = date.timeIntervalSince1970
        let seconds = t.rounded(.down)
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((t - seconds) * 1e9))
        return pthread_cond_timedwait(cond, mutex, &ts) != ETIMEDOUT
    }
}
