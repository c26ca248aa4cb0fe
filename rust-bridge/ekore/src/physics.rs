//! Which physics the anomalous dimensions and OMEs compute where eko 0.15.7
//! approximates (docs/physics.md §12.9, §16.5), chosen at run time.
//!
//! `Eko` (the default) reproduces eko: g_3(N) of the NLO non-singlet (and
//! wherever S_{-2,1} enters) from eko's 7-term fit, and the n_f delta(1-x)
//! constant of the parametrised P^(2)+_ns as eko has it (-173.924). `Exact`
//! takes g_3(N) exactly (`g3_exact`) and the exact NNLO anomalous dimensions
//! instead of the parametrisations (`as3::exact`, docs/physics.md §12.11);
//! the -173.927 of the parametrisation's authors (Pegasus, HOPPET), which
//! `Exact` took before those, survives only inside `as3::ns`.
//!
//! The choice travels inside `harmonics::Sums` (every anomalous dimension and
//! OME takes one), so no function signature of the physics modules changes.

/// See the module comment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Physics {
    /// eko 0.15.7's approximations (the default).
    #[default]
    Eko,
    /// The exact g_3(N) and the exact NNLO anomalous dimensions.
    Exact,
}

impl Physics {
    /// The choice of the C ABI's number (`EKORE_PHYSICS_EKO` 0, `EKORE_PHYSICS_EXACT` 1),
    /// or None for any other.
    pub fn from_abi(value: u32) -> Option<Physics> {
        match value {
            0 => Some(Physics::Eko),
            1 => Some(Physics::Exact),
            _ => None,
        }
    }
}
