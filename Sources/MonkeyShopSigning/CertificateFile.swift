import Foundation
import X509

/// What `store certificate --out` may replace: a file that is one certificate whole, DER or PEM,
/// as an earlier export left it. A private key, a key and certificate bundle, a CA bundle or a
/// PKCS #12 file starts the same way (a DER sequence, a PEM header) and is not one.
public enum CertificateFile {
  /// The longest file taken for a certificate: monkeyshop's are under 1 KB.
  public static let longest = 64 * 1024

  public static func isOneCertificate(_ data: Data) -> Bool {
    guard data.count <= longest else { return false }
    if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") {
      guard text.components(separatedBy: "-----BEGIN ").count == 2,
        text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("-----BEGIN CERTIFICATE-----")
      else { return false }
      return (try? Certificate(pemEncoded: text)) != nil
    }
    return (try? Certificate(derEncoded: Array(data))) != nil
  }
}
