package dev.muster.core.cycle;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShortageAnalysisFormatTest {
    @Test
    void amountsInTheUnitsPeopleWrite() {
        assertThat(ShortageAnalysis.format("cpu", 8000)).isEqualTo("8");
        assertThat(ShortageAnalysis.format("cpu", 1500)).isEqualTo("1500m");
        assertThat(ShortageAnalysis.format("memory", 16L << 30)).isEqualTo("16Gi");
        assertThat(ShortageAnalysis.format("memory", 1536L << 20)).isEqualTo("1536Mi");
        assertThat(ShortageAnalysis.format("memory", 1000)).isEqualTo("1000");
        assertThat(ShortageAnalysis.format("hugepages-2Mi", 4L << 20)).isEqualTo("4Mi");
        assertThat(ShortageAnalysis.format("nvidia.com/gpu", 8)).isEqualTo("8");
    }
}
