extension FixedWidthInteger {
    /// The integer's bytes, most significant first (network order), as a cursor's payload and its
    /// seal's keystream counter write them.
    package var bigEndianBytes: [UInt8] {
        stride(from: Self.bitWidth - 8, through: 0, by: -8).map { UInt8(truncatingIfNeeded: self >> $0) }
    }
}
