import Crypto
import Foundation
import JWTKit
import MonkeyShopStorage
import Synchronization

/// The claims of an App Store Server API token
/// (https://developer.apple.com/documentation/appstoreserverapi/generating-json-web-tokens-for-api-requests):
/// `iss` (the issuer ID), `iat`, `exp`, `aud` (`appstoreconnect-v1`) and `bid` (the bundle ID).
struct AppStoreToken: JWTPayload {
  var iss: IssuerClaim
  var aud: AudienceClaim
  var bid: String
  var exp: ExpirationClaim
  /// Optional: Apple's own App Store Server Library sends none. Its token is
  /// `{"bid", "iss", "aud", "exp": now + 5 minutes}` (`api_client.py`, `_generate_token`,
  /// app-store-server-library 3.1.2), and Apple's servers accept it.
  var iat: IssuedAtClaim?

  /// The signature is checked before this is called; the dates are checked by `TokenCheck`.
  func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Checks the bearer token of every request as Apple does: an ES256 JWT signed with the folder's
/// In-App Purchase key, its `kid` header the key ID, and the claims Apple lists. Any failure is 401
/// (every endpoint page: "401 Unauthorized: The JSON Web Token (JWT) in the authorization header is
/// invalid"). The signature and the claims' encoding are jwt-kit's; this says which values are right.
struct TokenCheck: Sendable {
  let keyID: String
  let issuerID: String
  let bundleID: String
  let keys: JWTKeyCollection
  /// Tokens already found good, with their expiry: "Generate a new token for each new API request,
  /// or reuse tokens until they expire" (https://developer.apple.com/documentation/appstoreserverapi).
  /// A reused token is not verified again; only its expiry is checked.
  let accepted = AcceptedTokens()

  /// "Tokens that expire more than 60 minutes after the time in `iat` are not valid."
  static let longestLife: TimeInterval = 3600
  static let audience = "appstoreconnect-v1"

  init(key: InAppPurchaseKey, bundleID: String) async throws {
    keyID = key.keyID
    issuerID = key.issuerID
    self.bundleID = bundleID
    let privateKey = try P256.Signing.PrivateKey(pemRepresentation: key.pem)
    let publicKey = try ES256PublicKey(pem: privateKey.publicKey.pemRepresentation)
    keys = JWTKeyCollection()
    await keys.add(ecdsa: publicKey, kid: JWKIdentifier(string: key.keyID))
  }

  /// Why the request's `Authorization` header is refused; nil when it is good.
  func problem(authorization: String?, now: Date = Date()) async -> String? {
    guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
    let token = Self.token(in: authorization.dropFirst("Bearer ".count))
    if let expiry = accepted.expiry(of: token) { return expiry > now ? nil : "expired" }
    if let problem = await check(token, now: now) { return problem }
    return nil
  }

  /// The token after `Bearer `, without the whitespace around it. A token that begins and ends
  /// with a visible ASCII character (as a JWT, base64url and dots, does) is taken as it is:
  /// Foundation's trimming, which bridges the text to `NSString`, costs more than the rest of a
  /// reused token's check.
  static func token(in text: Substring) -> String {
    let visible = { (byte: UInt8?) in byte.map { $0 > 0x20 && $0 < 0x7F } ?? false }
    if visible(text.utf8.first) && visible(text.utf8.last) { return String(text) }
    return String(text).trimmingCharacters(in: .whitespaces)
  }

  private func check(_ token: String, now: Date) async -> String? {
    // The header first: jwt-kit would try its default key for an unknown `kid`.
    let header: JWTHeader
    do {
      header = try DefaultJWTParser().parse(Array(token.utf8), as: AppStoreToken.self).header
    } catch {
      return "not a JWT with Apple's claims (\(error))"
    }
    guard header.alg == "ES256" else { return "alg is not ES256" }
    guard header.kid == keyID else { return "unknown key ID" }
    let claims: AppStoreToken
    do {
      claims = try await keys.verify(token, as: AppStoreToken.self)
    } catch {
      return "bad signature (\(error))"
    }
    guard claims.iss.value == issuerID else { return "unknown issuer" }
    guard claims.aud.value == [Self.audience] else { return "audience is not \(Self.audience)" }
    guard claims.bid == bundleID else { return "bundle ID is not \(bundleID)" }
    guard claims.exp.value > now else { return "expired" }
    if let issued = claims.iat?.value {
      guard claims.exp.value.timeIntervalSince(issued) <= Self.longestLife else {
        return "expires over 60 minutes after iat"
      }
    }
    // With or without `iat`, no token lives longer than 60 minutes from now: an `iat` set in the
    // future does not stretch it (Apple does not say what it does with one).
    guard claims.exp.value.timeIntervalSince(now) <= Self.longestLife else {
      return "expires over 60 minutes from now"
    }
    accepted.remember(token, expiring: claims.exp.value)
    return nil
  }
}

/// The tokens found good, until they expire; at most `limit`, forgotten all at once beyond it.
final class AcceptedTokens: Sendable {
  static let limit = 1000
  private let tokens = Mutex<[String: Date]>([:])

  func expiry(of token: String) -> Date? { tokens.withLock { $0[token] } }

  func remember(_ token: String, expiring expiry: Date) {
    tokens.withLock { tokens in
      if tokens.count >= Self.limit { tokens.removeAll() }
      tokens[token] = expiry
    }
  }
}
