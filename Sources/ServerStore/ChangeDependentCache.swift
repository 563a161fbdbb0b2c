/// What a layer above the store keeps of a tenant's synced rows (the server's encoded list
/// pages), emptied by every commit that logs a change and by every replacement of the tenant's
/// data, before the write returns to its caller (``CommitObserver``, a snapshot restore).
///
/// The store knows it only by this: what it holds and how it is keyed are the owner's.
package protocol ChangeDependentCache: AnyObject, Sendable {
    /// Forgets everything kept, and refuses what was read before this call.
    func invalidate()
}

extension EpochCache: ChangeDependentCache {}
