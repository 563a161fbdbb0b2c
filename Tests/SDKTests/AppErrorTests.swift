import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(2))) struct AppErrorTests {
    let english = Locale(identifier: "en_US")
    let spanish = Locale(identifier: "es_ES")

    struct MessageCase: Sendable, CustomTestStringConvertible {
        var error: NetworkError
        var english: String
        var spanish: String
        var testDescription: String { "\(error)" }
    }

    static let messages: [MessageCase] = [
        MessageCase(
            error: .noConnection, english: "You're offline. We'll sync when you're back.",
            spanish: "Sin conexión. Sincronizaremos cuando vuelvas a estar en línea."),
        MessageCase(
            error: .unauthorized(code: "invalid_credentials"), english: "The email or password is incorrect.",
            spanish: "El correo o la contraseña no son correctos."),
        MessageCase(
            error: .sessionExpired, english: "Your session has ended. Please sign in again.",
            spanish: "Tu sesión ha terminado. Vuelve a iniciar sesión."),
        MessageCase(
            error: .forbidden(code: "email_not_verified"), english: "Confirm your email address to continue.",
            spanish: "Confirma tu correo electrónico para continuar."),
        MessageCase(
            error: .rejected(status: 409, code: "email_taken"), english: "An account with this email already exists.",
            spanish: "Ya existe una cuenta con este correo."),
        MessageCase(
            error: .conflict(currentVersion: 3, current: nil),
            english: "This was changed somewhere else. Review the latest version.",
            spanish: "Esto cambió en otro lugar. Revisa la versión más reciente."),
        MessageCase(
            error: .rateLimited(retryAfter: .seconds(30)), english: "Too many attempts. Wait a moment and try again.",
            spanish: "Demasiados intentos. Espera un momento y vuelve a intentarlo."),
        MessageCase(
            error: .serverError(status: 500, code: "internal_error"),
            english: "Something went wrong on our side. Try again later.",
            spanish: "Algo salió mal de nuestro lado. Inténtalo más tarde."),
    ]

    @Test("userMessage speaks English and Spanish", arguments: messages)
    func userMessages(message: MessageCase) {
        let error = AppError(message.error)
        #expect(error.userMessage(locale: english) == message.english)
        #expect(error.userMessage(locale: spanish) == message.spanish)
    }

    static let everyError: [NetworkError] = [
        .invalidURL("x"), .noConnection, .timeout, .unauthorized(code: nil), .sessionExpired, .forbidden(code: nil),
        .notFound(code: nil), .conflict(currentVersion: nil, current: nil), .rejected(status: 422, code: nil),
        .rateLimited(retryAfter: nil), .validation([]), .serverError(status: 502, code: nil), .decodingError("x"),
        .encodingError("x"), .securityError("x"), .cancelled, .unknown("x"),
    ]

    @Test("every error has a non-empty message in both languages, and they differ", arguments: everyError)
    func everyErrorHasMessages(error: NetworkError) {
        let english = AppError(error).userMessage(locale: english)
        let spanish = AppError(error).userMessage(locale: spanish)
        #expect(!english.isEmpty && !spanish.isEmpty)
        #expect(english != spanish)
        #expect(AppError(error).userMessage(locale: Locale(identifier: "es_MX")) == spanish)
    }

    @Test("a message never shows internal detail")
    func noInternalDetail() {
        let message = AppError(.decodingError("keyNotFound(CodingKeys(stringValue: \"id\"))")).userMessage(locale: english)
        #expect(!message.contains("CodingKeys"))
    }

    @Test(
        "offline, timeouts, rate limits and server errors are retryable",
        arguments: [NetworkError.noConnection, .timeout, .rateLimited(retryAfter: nil), .serverError(status: 503, code: nil)])
    func retryable(error: NetworkError) {
        #expect(AppError(error).isRetryable)
    }

    @Test(
        "refusals and local failures are not retryable",
        arguments: [
            NetworkError.invalidURL("x"), .unauthorized(code: nil), .sessionExpired, .forbidden(code: nil), .notFound(code: nil),
            .conflict(currentVersion: nil, current: nil), .rejected(status: 422, code: nil), .validation([]),
            .decodingError("x"), .encodingError("x"), .securityError("x"), .cancelled, .unknown("x"),
        ])
    func notRetryable(error: NetworkError) {
        #expect(!AppError(error).isRetryable)
    }

    @Test("statusCode reports the HTTP status behind the error")
    func statusCodes() {
        let expectations: [(NetworkError, Int?)] = [
            (.unauthorized(code: "unauthorized"), 401), (.sessionExpired, 401), (.forbidden(code: nil), 403),
            (.notFound(code: nil), 404), (.conflict(currentVersion: 2, current: nil), 409),
            (.rejected(status: 428, code: "precondition_required"), 428), (.rateLimited(retryAfter: nil), 429),
            (.validation([]), 400), (.serverError(status: 504, code: nil), 504), (.noConnection, nil), (.timeout, nil),
            (.cancelled, nil),
        ]
        for (error, status) in expectations {
            #expect(AppError(error).statusCode == status, "\(error)")
        }
    }

    @Test("wrapping any error classifies it, and wrapping an AppError keeps it")
    func wrapping() {
        #expect(AppError(URLError(.notConnectedToInternet) as any Error).underlying == .noConnection)
        #expect(AppError(AppError(.timeout) as any Error).underlying == .timeout)
        #expect(AppError(CancellationError() as any Error).underlying == .cancelled)
    }
}
