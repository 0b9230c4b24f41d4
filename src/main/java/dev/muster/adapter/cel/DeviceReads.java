package dev.muster.adapter.cel;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.muster.core.dra.SelectorReads;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a checked selector expression reads of the {@code device} variable ({@link SelectorReads}): each use of
 * {@code device} must be {@code device.driver}, {@code device.allowMultipleAllocations}, or an entry of
 * {@code device.attributes} / {@code device.capacity} named by constants ({@code device.attributes["d"].x},
 * {@code device.attributes["d"]["x"]}, with or without {@code has()}). Any other use (the maps as a whole, a
 * computed key, a comprehension variable named {@code device}) makes the reads unknown.
 */
final class DeviceReads {
    private final Set<SelectorReads.Name> attributes = new LinkedHashSet<>();
    private final Set<SelectorReads.Name> capacities = new LinkedHashSet<>();
    private boolean unknown;

    private DeviceReads() {
    }

    /** The reads of a checked expression, or null when they cannot be told. */
    static SelectorReads of(CelExpr root) {
        DeviceReads r = new DeviceReads();
        r.walk(root);
        return r.unknown ? null : new SelectorReads(new ArrayList<>(r.attributes), new ArrayList<>(r.capacities));
    }

    private void walk(CelExpr e) {
        if (unknown) {
            return;
        }
        switch (e.getKind()) {
            case IDENT -> unknown |= isDeviceName(e.ident().name());
            case SELECT -> {
                CelExpr.CelSelect s = e.select();
                if (isDevice(s.operand())) {
                    unknown |= !(s.field().equals("driver") || s.field().equals("allowMultipleAllocations"));
                    return;
                }
                if (!add(s.operand(), s.field())) {
                    walk(s.operand());
                }
            }
            case CALL -> {
                CelExpr.CelCall c = e.call();
                if (isIndex(c) && c.args().get(1).getKind() == CelExpr.ExprKind.Kind.CONSTANT
                        && c.args().get(1).constant().getKind() == CelConstant.Kind.STRING_VALUE
                        && add(c.args().get(0), c.args().get(1).constant().stringValue())) {
                    return;
                }
                c.target().ifPresent(this::walk);
                for (CelExpr a : c.args()) {
                    walk(a);
                }
            }
            case COMPREHENSION -> {
                CelExpr.CelComprehension c = e.comprehension();
                unknown |= isDeviceName(c.iterVar()) || isDeviceName(c.iterVar2()) || isDeviceName(c.accuVar());
                walk(c.iterRange());
                walk(c.accuInit());
                walk(c.loopCondition());
                walk(c.loopStep());
                walk(c.result());
            }
            case LIST -> e.list().elements().forEach(this::walk);
            case MAP -> e.map().entries().forEach(en -> {
                walk(en.key());
                walk(en.value());
            });
            case STRUCT -> e.struct().entries().forEach(en -> walk(en.value()));
            default -> {
                // constants and unset expressions read nothing
            }
        }
    }

    /**
     * Records {@code id} when {@code map} is {@code device.attributes["d"]} or {@code device.capacity["d"]};
     * false when it is not.
     */
    private boolean add(CelExpr map, String id) {
        if (map.getKind() != CelExpr.ExprKind.Kind.CALL || !isIndex(map.call())) {
            return false;
        }
        CelExpr whole = map.call().args().get(0);
        CelExpr domain = map.call().args().get(1);
        if (whole.getKind() != CelExpr.ExprKind.Kind.SELECT || !isDevice(whole.select().operand())
                || whole.select().testOnly() || domain.getKind() != CelExpr.ExprKind.Kind.CONSTANT
                || domain.constant().getKind() != CelConstant.Kind.STRING_VALUE) {
            return false;
        }
        SelectorReads.Name name = new SelectorReads.Name(domain.constant().stringValue(), id);
        switch (whole.select().field()) {
            case "attributes" -> attributes.add(name);
            case "capacity" -> capacities.add(name);
            default -> {
                return false;
            }
        }
        return true;
    }

    private static boolean isIndex(CelExpr.CelCall c) {
        return c.function().equals("_[_]") && c.args().size() == 2 && c.target().isEmpty();
    }

    private static boolean isDevice(CelExpr e) {
        return e.getKind() == CelExpr.ExprKind.Kind.IDENT && isDeviceName(e.ident().name());
    }

    private static boolean isDeviceName(String name) {
        return DraCelEnvironment.DEVICE.equals(name);
    }
}
