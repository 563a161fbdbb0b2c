import Foundation
import Testing

@testable import EduGoSDK

/// ``BlockHandOff``: the bounded way from a download's writer to its hasher.
@Suite(.timeLimit(.minutes(1))) struct BlockHandOffTests {
    @Test("a slow hasher holds the writer at the bound: never more than `capacity` blocks in flight, each delivered once, in order")
    func slowHasherHoldsTheWriter() async throws {
        // Given a hand-off of two blocks and a hasher that takes a while over each block
        let handOff = BlockHandOff(capacity: 2)
        let count = 40
        let hasher = Task {
            var seen: [UInt8] = []
            var mostInFlight = 0
            while let block = await handOff.next() {
                mostInFlight = max(mostInFlight, handOff.inFlight)
                try? await Task.sleep(for: .milliseconds(2))
                seen.append(contentsOf: block)
                handOff.recycle(block)
            }
            return (seen, mostInFlight)
        }

        // When a fast writer sends forty blocks, counting those it sent ahead of the hasher
        var mostAhead = 0
        for index in 0..<count {
            await handOff.send([UInt8(index)])
            mostAhead = max(mostAhead, handOff.inFlight)
        }
        handOff.close()
        let (seen, mostInFlight) = await hasher.value

        // Then the writer was held at the bound (reached, never passed), and every block arrived once, in order
        #expect(seen == (0..<count).map { UInt8($0) })
        #expect(handOff.peakInFlight == 2)
        #expect(mostAhead <= 2 && mostInFlight <= 2)
        #expect(!handOff.wasCancelled)
    }

    @Test("hashed blocks come back for reuse, emptied with their capacity kept: a download allocates at most capacity + 1 blocks")
    func blocksAreReused() async {
        let handOff = BlockHandOff(capacity: 2)
        var block: [UInt8] = []
        block.reserveCapacity(4096)
        block.append(contentsOf: [1, 2, 3])
        await handOff.send(block)
        let received = await handOff.next()
        #expect(received == [1, 2, 3])
        handOff.recycle(received ?? [])

        let spare = handOff.spareBlock()
        #expect(spare == [])
        #expect((spare?.capacity ?? 0) >= 4096)
        #expect(handOff.spareBlock() == nil)
        #expect(handOff.inFlight == 0)
    }

    @Test("cancelling drops what is queued, ends the hasher with nil and releases a writer waiting for room")
    func cancelEndsBothSides() async throws {
        let handOff = BlockHandOff(capacity: 1)
        await handOff.send([1])
        // The writer waits: one block is in flight and nobody hashes it
        let writer = Task { await handOff.send([2]) }
        try await Task.sleep(for: .milliseconds(20))
        handOff.cancel()
        await writer.value
        #expect(await handOff.next() == nil)
        #expect(handOff.wasCancelled)
    }
}
