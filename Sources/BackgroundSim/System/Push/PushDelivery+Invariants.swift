extension PushDelivery: InternallyChecked {
    /// Traps unless a delivery attempt is scheduled exactly while a push is held, a completion window was
    /// opened by a background delivery that came before its deadline, and no more pushes were
    /// sent than the schedule gives; and the throttle is consistent.
    func checkInvariants() {
        precondition((held != nil) == attempt.isScheduled, "PushDelivery: a push held with no delivery attempt, or an attempt for none")
        if let window {
            guard let lastDelivery else { preconditionFailure("PushDelivery: a completion window with no delivery") }
            precondition(window.deadline > lastDelivery, "PushDelivery: the window's deadline is not after its delivery")
        }
        if pushes.schedule == .times {
            precondition(Int(sent) <= pushes.atHours.count, "PushDelivery: \(sent) pushes sent of \(pushes.atHours.count) given")
        }
        throttle.checkInvariants()
    }
}
