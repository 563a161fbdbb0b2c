@_spi(EduGoInternals) @testable import EduGoSDK

/// A token store whose reads can be overtaken by writes, like a Keychain or disk under
/// contention. Every load reads its value at once but delivers it late: the first after a
/// while (so concurrent callers start loads of their own), every later one only after the
/// next save has landed — stale.
actor SlowTokenStore: TokenStore {
    private let inner = InMemoryTokenStore()
    private var loads = 0
    private var saves = 0

    init(holding tokens: SessionTokens) async {
        await inner.save(tokens, for: Fixture.tokenKey)
    }

    func load(_ key: TokenStoreKey) async throws -> SessionTokens? {
        loads += 1
        let isFirst = loads == 1
        let savesBefore = saves
        let snapshot = await inner.load(key)
        var waited = 0
        while waited < (isFirst ? 200 : 10_000), isFirst || saves == savesBefore {
            await Task.yield()
            waited += 1
        }
        return snapshot
    }

    func save(_ tokens: SessionTokens, for key: TokenStoreKey) async throws {
        await inner.save(tokens, for: key)
        saves += 1
    }

    func remove(_ key: TokenStoreKey) async throws {
        await inner.remove(key)
    }
}
