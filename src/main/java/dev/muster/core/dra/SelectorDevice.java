package dev.muster.core.dra;

import java.math.BigDecimal;
import java.util.Map;

/**
 * What a device selector sees of one device: the CEL variable {@code device}. Attributes and capacities are filed
 * by domain, then by identifier; a name without a domain prefix is filed under the driver's name, as the API does.
 *
 * @param attributes domain → identifier → value
 * @param capacity   domain → identifier → exact quantity value
 */
public record SelectorDevice(String driver, Map<String, Map<String, DeviceAttribute>> attributes,
                             Map<String, Map<String, BigDecimal>> capacity, boolean allowMultipleAllocations) {
}
