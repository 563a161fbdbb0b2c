import EduGoServerStore
import HTTPTypes

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-ID")!
    static let host = HTTPField.Name("Host")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xTenantID = HTTPField.Name("X-Tenant-ID")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let crossOriginOpenerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!
    static let crossOriginResourcePolicy = HTTPField.Name("Cross-Origin-Resource-Policy")!
    static let strictTransportSecurity = HTTPField.Name("Strict-Transport-Security")!
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// Tells a buffering reverse proxy (nginx) to pass an event stream on as it is written.
    static let xAccelBuffering = HTTPField.Name("X-Accel-Buffering")!
}
