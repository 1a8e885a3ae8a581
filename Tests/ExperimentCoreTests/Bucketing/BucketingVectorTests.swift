import Testing
@testable import ExperimentCore

/// The SPEC §2 vectors: first FNV-1a hash and final bucket for fixed salts and subjects.
struct BucketingVectorTests {
    static let vectors: [(salt: String, subject: String, firstHash: UInt32, bucket: Int)] = [
        ("account_add_funds", "user-1", 198_645_014, 6471),
        ("account_add_funds", "user-42", 1_235_373_381, 1165),
        ("app_color_scheme", "device-7f3a", 2_270_950_710, 2440),
        ("cash_projection_banner", "1001", 2_506_208_163, 1436),
        ("", "x", 4_245_442_695, 9986),
        ("ebook_promotion", "héllo", 961_499_938, 439),
    ]

    @Test(arguments: vectors.indices)
    func specVector(_ index: Int) {
        let vector = Self.vectors[index]
        #expect(FNV1a.hash(vector.salt + vector.subject) == vector.firstHash)
        #expect(Bucketer.bucket(salt: vector.salt, subject: vector.subject) == vector.bucket)
    }

    @Test func rehashMatchesHashOfDecimalDigits() {
        for value: UInt32 in [0, 7, 10, 99_999, 4_294_967_295, 198_645_014] {
            #expect(Bucketer.rehashDecimal(value) == FNV1a.hash(String(value)))
        }
    }
}
