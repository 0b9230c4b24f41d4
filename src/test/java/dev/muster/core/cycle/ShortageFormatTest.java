package dev.muster.core.cycle;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShortageFormatTest {
    @Test
    void amountsInTheUnitsPeopleWrite() {
        assertThat(Shortage.format("cpu", 8000)).isEqualTo("8");
        assertThat(Shortage.format("cpu", 1500)).isEqualTo("1500m");
        assertThat(Shortage.format("memory", 16L << 30)).isEqualTo("16Gi");
        assertThat(Shortage.format("memory", 1536L << 20)).isEqualTo("1536Mi");
        assertThat(Shortage.format("memory", 1000)).isEqualTo("1000");
        assertThat(Shortage.format("hugepages-2Mi", 4L << 20)).isEqualTo("4Mi");
        assertThat(Shortage.format("nvidia.com/gpu", 8)).isEqualTo("8");
    }
}
