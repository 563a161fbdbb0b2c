import EduGoServerStore
import Foundation

/// A mail the server sent (in dev mode, kept here instead of leaving the machine).
struct Mail: Codable, Sendable, Equatable {
    var id: String
    var to: String
    var kind: String
    var subject: String
    var body: String
    var token: String
    var createdAt: Date
}

/// The dev-mode mailbox: verification and reset mails per tenant, newest first, bounded.
actor DevMailbox {
    private var mails: [TenantID: [Mail]] = [:]
    private let capacity = 500

    func deliver(_ mail: Mail, tenant: TenantID) {
        var list = mails[tenant] ?? []
        list.insert(mail, at: 0)
        if list.count > capacity { list.removeLast(list.count - capacity) }
        mails[tenant] = list
    }

    func messages(tenant: TenantID, to email: String?) -> [Mail] {
        let list = mails[tenant] ?? []
        guard let email else { return list }
        let key = UserRecord.emailKey(email)
        return list.filter { UserRecord.emailKey($0.to) == key }
    }
}
