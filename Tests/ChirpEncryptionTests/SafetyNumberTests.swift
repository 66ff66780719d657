import ChirpEncryption
import Testing

@Suite("Safety numbers")
struct SafetyNumberTests {
    /// The Ed25519 public keys of the private keys 0x01…01, 0x02…02, 0x03…03 and 0x04…04.
    static let aliceKeys = [
        "iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w", "gTl3Dqh9F19Wo1Rmw0x-zMuNipG07jeiXfYPW4_Js5Q",
    ]
    static let bobKeys = ["7UkoxijRwsbq6QM4kFmVYSlZJzpcY_k2NsFGFKyHN9E"]
    static let bobsNewKey = "ypOsFwUYcHHWe4PH_w7-gQjo7EUwV113JoeTM9vavnw"

    /// Computed once with Python's hashlib from the spec (`Tests/Fixtures/encryption/check_vectors.py`
    /// recomputes it): a known answer that pins the spec, not this implementation.
    @Test func aFixedPairGivesTheKnownNumber() throws {
        let number = try SafetyNumber(("alice", Self.aliceKeys), ("bob", Self.bobKeys))
        #expect(number.digits == "767398664618728182249787055017015339905171741491246685429015")
        #expect(number.formatted == "76739 86646 18728 18224 97870 55017 01533 99051 71741 49124 66854 29015")
        #expect(number.description == number.formatted)
        #expect(
            try SafetyNumber.digits(username: "alice", identityKeys: Self.aliceKeys) == "767398664618728182249787055017"
        )
    }

    @Test func bothSidesComputeTheSameNumber() throws {
        let aliceSide = try SafetyNumber(("alice", Self.aliceKeys), ("bob", Self.bobKeys))
        let bobSide = try SafetyNumber(("bob", Self.bobKeys), ("alice", Self.aliceKeys.reversed()))
        #expect(aliceSide == bobSide)
        #expect(aliceSide.digits.count == 60)
        let allDigits = aliceSide.digits.allSatisfy { $0.isASCII && $0.isNumber }
        #expect(allDigits)
    }

    @Test func anAddedDeviceChangesTheNumber() throws {
        let before = try SafetyNumber(("alice", Self.aliceKeys), ("bob", Self.bobKeys))
        let after = try SafetyNumber(("alice", Self.aliceKeys), ("bob", Self.bobKeys + [Self.bobsNewKey]))
        #expect(before != after)
        #expect(after.digits.hasPrefix(String(before.digits.prefix(30))), "alice's half stays")
        #expect(String(after.digits.suffix(30)) == "720794555656811744564319922992")
    }

    @Test func aMalformedKeyIsRefused() {
        #expect(throws: SafetyNumberError.malformedIdentityKey("short")) {
            try SafetyNumber(("alice", ["short"]), ("bob", Self.bobKeys))
        }
    }
}
