#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An object bound to the calling thread: what a simulation running on a thread reaches from
/// code that is handed nothing (a runtime hook, `BGTaskScheduler.shared`). The binding does not
/// retain the object; whoever binds it keeps it alive while bound.
package final class ThreadBinding<Object: AnyObject>: @unchecked Sendable {
    private let key: pthread_key_t

    package init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    /// The object bound to the calling thread, if any.
    package var current: Object? {
        get { pthread_getspecific(key).map { Unmanaged<Object>.fromOpaque($0).takeUnretainedValue() } }
        set { pthread_setspecific(key, newValue.map { Unmanaged.passUnretained($0).toOpaque() }) }
    }
}
