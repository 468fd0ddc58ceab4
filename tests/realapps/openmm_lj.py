#!/usr/bin/python3
"""OpenMM on its OpenCL platform: a small Lennard-Jones box (argon-like, 216 particles, periodic, cut-off),
fixed positions and velocities, a fixed-step Verlet integrator. Prints the potential and kinetic energy
after 5 steps; the numbers are the same run to run (deterministic forces, fixed inputs)."""
import sys

import openmm
from openmm import unit


def main():
    n_side, spacing = 6, 0.38  # nm
    system = openmm.System()
    nb = openmm.NonbondedForce()
    nb.setNonbondedMethod(openmm.NonbondedForce.CutoffPeriodic)
    nb.setCutoffDistance(0.9)
    box = n_side * spacing
    system.setDefaultPeriodicBoxVectors(openmm.Vec3(box, 0, 0), openmm.Vec3(0, box, 0), openmm.Vec3(0, 0, box))
    positions = []
    for i in range(n_side):
        for j in range(n_side):
            for k in range(n_side):
                system.addParticle(39.948)
                nb.addParticle(0.0, 0.3405, 0.996)
                positions.append(openmm.Vec3(i * spacing, j * spacing, k * spacing))
    system.addForce(nb)
    integrator = openmm.VerletIntegrator(0.002)
    platform = openmm.Platform.getPlatformByName("OpenCL")
    context = openmm.Context(system, integrator, platform, {"Precision": "single"})
    context.setPositions(positions)
    context.setVelocitiesToTemperature(120.0, 4242)
    integrator.step(5)
    state = context.getState(getEnergy=True)
    pe = state.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
    ke = state.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole)
    print(f"openmm: platform {context.getPlatform().getName()}, {system.getNumParticles()} particles, 5 steps")
    print(f"openmm: potential {pe:.6f} kJ/mol, kinetic {ke:.6f} kJ/mol")
    return 0


if __name__ == "__main__":
    sys.exit(main())
