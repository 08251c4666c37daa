extension Int {
    /// The smallest multiple of `alignment` (a power of two) not below `self`: where a field
    /// aligned to `alignment` goes after `self` bytes.
    @inlinable
    func roundedUp(to alignment: Int) -> Int {
        (self + alignment - 1) & ~(alignment - 1)
    }
}
